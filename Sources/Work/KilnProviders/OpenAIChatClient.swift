public import CurlClient
import Foundation
import KilnJSON
import Locking

/// OpenAI's chat completions (`POST /v1/chat/completions`) and the servers that copy it: xAI Grok, llama.cpp,
/// vLLM, Ollama. Whole or streamed; several choices with `n`; JSON answers with `response_format`.
public struct OpenAIChatClient: TextProvider {
    /// Which field carries the length limit: OpenAI's current `max_completion_tokens` (which its reasoning models
    /// require), or `max_tokens`, the one the servers that copy the API read (llama.cpp's ignores the other).
    public enum LengthField: String, Sendable {
        case maxCompletionTokens = "max_completion_tokens"
        case maxTokens = "max_tokens"
    }

    public let name: String
    private let transport: ProviderTransport
    private let lengthField: LengthField

    /// - Parameter name: the provider's name in Kiln's configuration (`openai`, `xai`, `local`), carried into errors.
    public init(http: HTTPClient, endpoint: ProviderEndpoint, name: String = "openai", lengthField: LengthField = .maxCompletionTokens) {
        self.name = name
        self.transport = ProviderTransport(http: http, endpoint: endpoint, provider: name)
        self.lengthField = lengthField
    }

    public func generate(_ request: TextGenerationRequest) async throws -> TextGeneration {
        let (json, headers) = try await self.transport.sendJSON(
            path: "/v1/chat/completions", headers: self.headers, body: Self.body(request, stream: false, lengthField: self.lengthField))
        guard let choices = json["choices"]?.arrayValue, !choices.isEmpty else {
            throw self.transport.malformed("the answer has no choices", headers: headers)
        }
        var texts = [String](repeating: "", count: max(request.choices, choices.count))
        var reasons = [String?](repeating: nil, count: texts.count)
        for (position, choice) in choices.enumerated() {
            let index = choice["index"]?.intValue ?? position
            guard texts.indices.contains(index) else { continue }
            let message = choice["message"]
            if let refusal = message?["refusal"]?.stringValue {
                throw ProviderError(
                    kind: .contentRefused, provider: self.name, code: "refusal", message: "the model refused: \(refusal.prefix(200))",
                    requestID: ProviderFailureClassifier.requestID(headers), isRetryable: false)
            }
            texts[index] = message?["content"]?.stringValue ?? ""
            reasons[index] = choice["finish_reason"]?.stringValue
        }
        var answer = TextGeneration(
            choices: texts, finishReason: Self.finishReason(reasons.first ?? nil), usage: Self.usage(json["usage"]), provider: self.name,
            model: json["model"]?.stringValue ?? request.model, requestID: ProviderFailureClassifier.requestID(headers))
        answer.rateLimitWait = RateLimitHeaders.exhaustedFor(headers)
        return answer
    }

    public func stream(
        _ request: TextGenerationRequest, onDelta: @escaping @Sendable (TextDelta) throws -> Void
    ) async throws -> TextGeneration {
        let streamed = Locked(StreamedChoices(count: max(1, request.choices), model: request.model))
        let headers = try await self.transport.stream(
            path: "/v1/chat/completions", headers: self.headers, body: Self.body(request, stream: true, lengthField: self.lengthField)
        ) {
            event, headers in
            // Chunks carry no event name; the stream ends with a bare `[DONE]`.
            if event.data == "[DONE]" { return true }
            guard let json = JSONValue.parse(event.data) else {
                throw self.transport.malformed("a chunk that is not JSON", headers: headers)
            }
            if json["error"] != nil {
                throw self.transport.classifier.streamError(json, headers: headers)
            }
            try streamed.withLock { streamed in
                streamed.model = json["model"]?.stringValue ?? streamed.model
                if let counted = json["usage"], counted != .null { streamed.usage = Self.usage(counted) }
                // vLLM sends `choices: null` in the usage chunk, so a missing list is no error.
                for choice in json["choices"]?.arrayValue ?? [] {
                    let index = choice["index"]?.intValue ?? 0
                    guard streamed.texts.indices.contains(index) else { continue }
                    if let reason = choice["finish_reason"]?.stringValue { streamed.reasons[index] = reason }
                    if let refusal = choice["delta"]?["refusal"]?.stringValue, !refusal.isEmpty {
                        throw ProviderError(
                            kind: .contentRefused, provider: self.name, code: "refusal", message: "the model refused",
                            requestID: ProviderFailureClassifier.requestID(headers), isRetryable: false)
                    }
                    if let piece = choice["delta"]?["content"]?.stringValue, !piece.isEmpty {
                        streamed.texts[index] += piece
                        try onDelta(TextDelta(choice: index, text: piece))
                    }
                }
            }
            return false
        }
        let answered = streamed.withLock { $0 }
        var answer = TextGeneration(
            choices: answered.texts, finishReason: Self.finishReason(answered.reasons[0]), usage: answered.usage, provider: self.name,
            model: answered.model, requestID: ProviderFailureClassifier.requestID(headers))
        answer.rateLimitWait = RateLimitHeaders.exhaustedFor(headers)
        return answer
    }

    /// What a streamed answer has brought so far, by choice.
    private struct StreamedChoices {
        var texts: [String]
        var reasons: [String?]
        var usage = TokenUsage()
        var model: String

        init(count: Int, model: String) {
            texts = Array(repeating: "", count: count)
            reasons = Array(repeating: nil, count: count)
            self.model = model
        }
    }

    private var headers: HTTPHeaders {
        ["Authorization": "Bearer \(self.transport.endpoint.apiKey)"]
    }

    static func body(_ request: TextGenerationRequest, stream: Bool, lengthField: LengthField) -> JSONValue {
        var messages: [JSONValue] = []
        if let system = request.system { messages.append(.object(["role": "system", "content": .string(system)])) }
        messages += request.messages.map(Self.message)
        var fields: [String: JSONValue] = [
            "model": .string(request.model),
            "messages": .array(messages),
            lengthField.rawValue: .number(Double(request.maxTokens)),
            "stream": .bool(stream),
        ]
        if stream { fields["stream_options"] = .object(["include_usage": true]) }
        if request.choices > 1 { fields["n"] = .number(Double(request.choices)) }
        if let temperature = request.temperature { fields["temperature"] = .number(temperature) }
        if !request.stopSequences.isEmpty { fields["stop"] = .array(request.stopSequences.map(JSONValue.string)) }
        if let schema = request.responseSchema {
            fields["response_format"] = .object([
                "type": "json_schema",
                "json_schema": .object(["name": .string(schema.name), "strict": true, "schema": schema.schema]),
            ])
        }
        return .object(fields)
    }

    private static func message(_ message: ChatMessage) -> JSONValue {
        if case .text(let text) = message.parts.first, message.parts.count == 1 {
            return .object(["role": .string(message.role.rawValue), "content": .string(text)])
        }
        let content = message.parts.map { part -> JSONValue in
            switch part {
            case .text(let text):
                return .object(["type": "text", "text": .string(text)])
            case .image(let mediaType, let data):
                let url = "data:\(mediaType);base64,\(Data(data).base64EncodedString())"
                return .object(["type": "image_url", "image_url": .object(["url": .string(url)])])
            }
        }
        return .object(["role": .string(message.role.rawValue), "content": .array(content)])
    }

    static func finishReason(_ reason: String?) -> TextGeneration.FinishReason {
        switch reason {
        case "stop", nil: .stop
        case "length": .length
        case "content_filter": .refused
        case let other?: .other(other)
        }
    }

    static func usage(_ json: JSONValue?) -> TokenUsage {
        TokenUsage(inputTokens: json?["prompt_tokens"]?.intValue ?? 0, outputTokens: json?["completion_tokens"]?.intValue ?? 0)
    }
}
