import BlockingWork
import Foundation
import Hummingbird
import KilnJSON

/// `POST /v1/images/generations` (JSON) and `POST /v1/images/edits` (multipart), §3 of the wire-format reference.
///
/// GPT image models answer `b64_json` with `usage`; dall-e models answer `url` when asked, served by the
/// simulator under `/_simulator/files/`.
enum OpenAIImages {
    /// The request fields both endpoints share, from JSON or from form fields.
    struct Parameters {
        var model: String
        var prompt: String
        var count: Int
        var size: String?
        var responseFormat: String?
        var quality: String?
        var background: String?
        var inputImages: Int
    }

    static func generate(_ exchange: Exchange) async throws -> Response {
        try self.authorize(exchange)
        let body = try exchange.json()
        guard let prompt = body["prompt"]?.stringValue, !prompt.isEmpty else { throw exchange.badRequest("Missing required parameter: 'prompt'.") }
        let parameters = Parameters(
            model: body["model"]?.stringValue ?? "dall-e-2", prompt: prompt, count: body["n"]?.intValue ?? 1, size: body["size"]?.stringValue,
            responseFormat: body["response_format"]?.stringValue, quality: body["quality"]?.stringValue,
            background: body["background"]?.stringValue, inputImages: 0)
        return try await self.answer(exchange, parameters)
    }

    static func edit(_ exchange: Exchange) async throws -> Response {
        try self.authorize(exchange)
        guard let boundary = exchange.header("content-type").flatMap(MultipartForm.boundary(contentType:)) else {
            throw exchange.badRequest("Invalid Content-Type header (application/json), expected multipart/form-data.")
        }
        let form: MultipartForm
        do {
            form = try MultipartForm(body: exchange.body, boundary: boundary)
        } catch {
            throw exchange.badRequest("Could not parse multipart form: \(error.description)")
        }
        let images = form.parts(named: ["image", "image[]"])
        guard !images.isEmpty else { throw exchange.badRequest("Missing required parameter: 'image'.") }
        guard let prompt = form.value("prompt"), !prompt.isEmpty else { throw exchange.badRequest("Missing required parameter: 'prompt'.") }
        let parameters = Parameters(
            model: form.value("model") ?? "gpt-image-1", prompt: prompt, count: form.value("n").flatMap(Int.init) ?? 1, size: form.value("size"),
            responseFormat: form.value("response_format"), quality: form.value("quality"), background: form.value("background"),
            inputImages: images.count)
        return try await self.answer(exchange, parameters)
    }

    private static func authorize(_ exchange: Exchange) throws(Rejection) {
        guard let authorization = exchange.header("authorization"), authorization.hasPrefix("Bearer "), authorization.count > 7 else {
            throw Rejection(
                exchange.provider.errorResponse(
                    status: 401,
                    message: "You didn't provide an API key. You need to provide your API key in an Authorization header using Bearer auth.",
                    requestID: exchange.requestID))
        }
    }

    private static func answer(_ exchange: Exchange, _ parameters: Parameters) async throws -> Response {
        let fault = try exchange.fault(model: parameters.model, prompt: parameters.prompt)
        if let response = try await exchange.interrupt(for: fault) { return response }
        guard (1...10).contains(parameters.count) else { throw exchange.badRequest("\(parameters.count) is not a valid value for 'n'.") }
        guard let size = GeneratedImage.size(parameters.size) else {
            throw exchange.badRequest(
                "Invalid value: '\(parameters.size ?? "")'. Supported values are: '1024x1024', '1024x1536', '1536x1024', and 'auto'.")
        }
        let gptImage = parameters.model.hasPrefix("gpt-image")
        let prompt = FaultDirective.stripped(parameters.prompt)
        let wantsURL = !gptImage && parameters.responseFormat == "url"
        let host = exchange.request.head.authority ?? "\(exchange.configuration.host):\(exchange.configuration.port)"
        let images = (0..<parameters.count).map { index in
            GeneratedImage(prompt: "\(parameters.model)\n\(prompt)", index: index, width: size.width, height: size.height)
        }
        // Drawing the images and writing out their base64 (megabytes) take a render thread, never the request's.
        let respond: @Sendable () -> Response = {
            let data: [JSONValue] = images.map { image in
                wantsURL
                    ? .object(["url": .string("http://\(host)/_simulator/files/\(image.fileName)"), "revised_prompt": .string(prompt)])
                    : .object(["b64_json": .string(Data(image.png).base64EncodedString())])
            }
            var body: [String: JSONValue] = ["created": .number(Double(Int(Date().timeIntervalSince1970))), "data": .array(data)]
            if gptImage {
                let textTokens = TokenCount.words(in: prompt)
                let imageTokens = parameters.inputImages * 323
                // Roughly the published per-image output cost at medium quality; its exact value matters only as a
                // number that scales with the request.
                let outputTokens = parameters.count * size.width * size.height / 1024 / 1024 * 1056
                body["background"] = .string(parameters.background ?? "opaque")
                body["output_format"] = "png"
                body["quality"] = .string(parameters.quality ?? "medium")
                body["size"] = .string("\(size.width)x\(size.height)")
                body["usage"] = .object([
                    "input_tokens": .number(Double(textTokens + imageTokens)),
                    "input_tokens_details": .object(["text_tokens": .number(Double(textTokens)), "image_tokens": .number(Double(imageTokens))]),
                    "output_tokens": .number(Double(outputTokens)), "total_tokens": .number(Double(textTokens + imageTokens + outputTokens)),
                ])
            }
            return exchange.answer(.object(body), fault: fault)
        }
        return wantsURL ? respond() : try await BlockingExecutor.rendering.run(respond)
    }
}
