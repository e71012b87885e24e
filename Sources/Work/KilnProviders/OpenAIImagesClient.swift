public import CurlClient
import Foundation
import KilnJSON

/// OpenAI Images: `POST /v1/images/generations` for text to image, `POST /v1/images/edits` (multipart, one `image[]`
/// part per input) when the request has input images. GPT image models answer base64; dall-e models may answer
/// URLs, which are fetched at once (they expire within the hour).
public struct OpenAIImagesClient: ImageProvider {
    public let name: String
    private let transport: ProviderTransport

    public init(http: HTTPClient, endpoint: ProviderEndpoint, name: String = "openai") {
        self.name = name
        self.transport = ProviderTransport(http: http, endpoint: endpoint, provider: name)
    }

    public func generate(_ request: ImageGenerationRequest) async throws -> GeneratedImages {
        let headers: HTTPHeaders = ["Authorization": "Bearer \(self.transport.endpoint.apiKey)"]
        let response: HTTPResponse
        if request.inputs.isEmpty {
            var fields: [String: JSONValue] = [
                "model": .string(request.model), "prompt": .string(request.prompt), "n": .number(Double(request.count)),
            ]
            if let size = Self.size(request.size, model: request.model) { fields["size"] = .string(size) }
            response = try await self.transport.send(
                path: "/v1/images/generations", headers: headers, body: Array(JSONValue.object(fields).canonicalJSON().utf8))
        } else {
            var form = MultipartForm()
            form.add(name: "model", value: request.model)
            form.add(name: "prompt", value: request.prompt)
            form.add(name: "n", value: String(request.count))
            if let size = Self.size(request.size, model: request.model) { form.add(name: "size", value: size) }
            for (index, image) in request.inputs.enumerated() {
                let suffix = image.mediaType.split(separator: "/").last.map(String.init) ?? "png"
                form.add(name: "image[]", fileName: "input-\(index).\(suffix)", contentType: image.mediaType, data: image.data)
            }
            var formHeaders = headers
            formHeaders.add(name: "Content-Type", value: form.contentType)
            response = try await self.transport.send(path: "/v1/images/edits", headers: formHeaders, body: form.bytes)
        }
        guard let json = JSONValue.parse(String(decoding: response.body, as: UTF8.self)), let data = json["data"]?.arrayValue, !data.isEmpty else {
            throw self.transport.malformed("the answer has no images", headers: response.headers)
        }
        let mediaType = "image/\(json["output_format"]?.stringValue ?? "png")"
        var images: [GeneratedImages.Image] = []
        for entry in data {
            if let base64 = entry["b64_json"]?.stringValue, let bytes = Data(base64Encoded: base64) {
                images.append(.init(mediaType: mediaType, data: Array(bytes)))
            } else if let url = entry["url"]?.stringValue {
                let file = try await self.transport.download(url)
                images.append(.init(mediaType: file.headers["content-type"] ?? mediaType, data: file.body))
            } else {
                throw self.transport.malformed("an image with neither b64_json nor url", headers: response.headers)
            }
        }
        let usage = TokenUsage(
            inputTokens: json["usage"]?["input_tokens"]?.intValue ?? 0, outputTokens: json["usage"]?["output_tokens"]?.intValue ?? 0)
        return GeneratedImages(
            images: images, provider: self.name, model: request.model, usage: usage, seed: nil,
            requestID: ProviderFailureClassifier.requestID(response.headers))
    }

    /// The `size` to send for `wanted`: the sizes each model takes are fixed (the wire-format reference), so the one
    /// of the same orientation; `gpt-image-2` and unknown models get the size as asked.
    public static func size(_ wanted: (width: Int, height: Int)?, model: String) -> String? {
        guard let wanted else { return nil }
        let (square, wide, tall): (String, String, String)
        switch model {
        case let name where name.hasPrefix("gpt-image-1"): (square, wide, tall) = ("1024x1024", "1536x1024", "1024x1536")
        case "dall-e-3": (square, wide, tall) = ("1024x1024", "1792x1024", "1024x1792")
        case "dall-e-2": return "1024x1024"
        default: return "\(wanted.width)x\(wanted.height)"
        }
        // Within a tenth of square counts as square.
        if abs(wanted.width - wanted.height) * 10 <= max(wanted.width, wanted.height) { return square }
        return wanted.width > wanted.height ? wide : tall
    }
}
