public import CurlClient
import Foundation
import KilnJSON

/// fal.ai's queue API: submit to `/{model}`, poll the `status_url` it answers until `COMPLETED`, read the
/// `response_url`, then fetch the images it names. The URLs fal returns are used as given (its advice: the status
/// and result URLs drop the model's subpath). A cancelled call asks fal to cancel the request.
///
/// One input image goes as `image_url`, several as `image_urls` (the kontext multi models), each as a data URI.
public struct FalClient: ImageProvider {
    public let name: String
    private let transport: ProviderTransport
    /// The first wait between status polls; each later one is half as long again, up to 5 seconds.
    private let firstPoll: Duration

    public init(http: HTTPClient, endpoint: ProviderEndpoint, name: String = "fal", firstPoll: Duration = .milliseconds(500)) {
        self.name = name
        self.transport = ProviderTransport(http: http, endpoint: endpoint, provider: name)
        self.firstPoll = firstPoll
    }

    public func generate(_ request: ImageGenerationRequest) async throws -> GeneratedImages {
        let headers: HTTPHeaders = ["Authorization": "Key \(self.transport.endpoint.apiKey)"]
        let (submitted, submitHeaders) = try await self.transport.sendJSON(path: "/" + request.model, headers: headers, body: Self.input(request))
        guard let statusURL = submitted["status_url"]?.stringValue, let responseURL = submitted["response_url"]?.stringValue else {
            throw self.transport.malformed("the submission answer has no status_url or response_url", headers: submitHeaders)
        }
        do {
            try await self.awaitCompletion(statusURL, headers: headers)
        } catch is CancellationError {
            if let cancelURL = submitted["cancel_url"]?.stringValue {
                // The caller's task is cancelled, so the request to cancel runs on a task of its own.
                let transport = self.transport
                await Task.detached { _ = try? await transport.send("PUT", url: cancelURL, headers: headers, body: nil) }.value
            }
            throw CancellationError()
        }
        let result = try await self.transport.send("GET", url: responseURL, headers: headers, body: nil)
        guard let json = JSONValue.parse(String(decoding: result.body, as: UTF8.self)), let entries = json["images"]?.arrayValue, !entries.isEmpty
        else {
            throw self.transport.malformed("the result has no images", headers: result.headers)
        }
        var images: [GeneratedImages.Image] = []
        for entry in entries {
            guard let url = entry["url"]?.stringValue else { throw self.transport.malformed("an image without a url", headers: result.headers) }
            let file = try await self.transport.download(url)
            images.append(.init(mediaType: entry["content_type"]?.stringValue ?? file.headers["content-type"] ?? "image/png", data: file.body))
        }
        return GeneratedImages(
            images: images, provider: self.name, model: request.model, usage: TokenUsage(), seed: json["seed"]?.intValue,
            requestID: submitted["request_id"]?.stringValue)
    }

    /// Polls until the request is `COMPLETED`; fal answers 202 while it is queued or running.
    private func awaitCompletion(_ statusURL: String, headers: HTTPHeaders) async throws {
        var wait = self.firstPoll
        while true {
            let response = try await self.transport.send("GET", url: statusURL, headers: headers, body: nil)
            let status = JSONValue.parse(String(decoding: response.body, as: UTF8.self))?["status"]?.stringValue
            switch status {
            case "COMPLETED":
                return
            case "IN_QUEUE", "IN_PROGRESS":
                try await Task.sleep(for: wait)
                wait = min(wait * 1.5, .seconds(5))
            default:
                throw self.transport.malformed("a status of \(status ?? "nothing")", headers: response.headers)
            }
        }
    }

    static func input(_ request: ImageGenerationRequest) -> JSONValue {
        var fields: [String: JSONValue] = ["prompt": .string(request.prompt), "num_images": .number(Double(request.count))]
        if let size = request.size { fields["image_size"] = .object(["width": .number(Double(size.width)), "height": .number(Double(size.height))]) }
        if let seed = request.seed { fields["seed"] = .number(Double(seed)) }
        let dataURIs = request.inputs.map { JSONValue.string("data:\($0.mediaType);base64,\(Data($0.data).base64EncodedString())") }
        if dataURIs.count == 1 {
            fields["image_url"] = dataURIs[0]
        } else if dataURIs.count > 1 {
            fields["image_urls"] = .array(dataURIs)
        }
        return .object(fields)
    }
}
