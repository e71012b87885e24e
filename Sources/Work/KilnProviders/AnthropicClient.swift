public import CurlClient
import Foundation
import KilnJSON
import Locking

/// Anthropic's Messages API (`POST /v1/messages`), whole or streamed.
///
/// Anthropic has no `n`: a request for several choices sends that many calls at once and adds up their usage.
public struct AnthropicClient: TextProvider {
    /// The `anthropic-version` every request names; still the only generally available one.
    public static let apiVersion = "2023-06-01"

    public let name: String
    private let transport: ProviderTransport

    /// - Parameter name: the provider's name in Kiln's configuration, carried into errors and metrics.
    public init(http: HTTPClient, endpoint: ProviderEndpoint, name: String = "anthropic") {
        self.name = name
        self.transport = ProviderTransport(http: http, endpoint: endpoint, provider: name)
    }

    public func generate(_ request: TextGenerationRequest) async throws -> TextGeneration {
        try await self.eachChoice(of: request) { _ in
            let (json, headers) = try await self.transport.sendJSON(
                path: "/v1/messages", headers: self.headers, body: Self.body(request, stream: false))
            guard json["type"]?.stringValue == "message", let content = json["content"]?.arrayValue else {
                throw self.transport.malformed("the answer is not a message", headers: headers)
            }
            let text = content.compactMap { $0["type"]?.stringValue == "text" ? $0["text"]?.stringValue : nil }.joined()
            var answer = TextGeneration(
                choices: [text], finishReason: Self.finishReason(json["stop_reason"]?.stringValue), usage: Self.usage(json["usage"]),
                provider: self.name,
                model: json["model"]?.stringValue ?? request.model, requestID: ProviderFailureClassifier.requestID(headers))
            answer.rateLimitWait = RateLimitHeaders.exhaustedFor(headers)
            return answer
        }
    }

    public func stream(
        _ request: TextGenerationRequest, onDelta: @escaping @Sendable (TextDelta) throws -> Void
    ) async throws -> TextGeneration {
        try await self.eachChoice(of: request) { choice in
            let accumulator = Locked(StreamAccumulator(provider: self.name, model: request.model))
            let headers = try await self.transport.stream(path: "/v1/messages", headers: self.headers, body: Self.body(request, stream: true)) {
                event, headers in
                try accumulator.withLock { accumulator in
                    try accumulator.handle(event, headers: headers, classifier: self.transport.classifier) {
                        try onDelta(TextDelta(choice: choice, text: $0))
                    }
                }
            }
            var answer = accumulator.withLock { $0.generation(requestID: ProviderFailureClassifier.requestID(headers)) }
            answer.rateLimitWait = RateLimitHeaders.exhaustedFor(headers)
            return answer
        }
    }

    private var headers: HTTPHeaders {
        ["x-api-key": self.transport.endpoint.apiKey, "anthropic-version": Self.apiVersion]
    }

    /// Runs `call` once per requested choice, concurrently, and merges the answers in choice order.
    private func eachChoice(
        of request: TextGenerationRequest, _ call: @escaping @Sendable (Int) async throws -> TextGeneration
    ) async throws -> TextGeneration {
        guard request.choices > 1 else { return try await call(0) }
        return try await withThrowingTaskGroup(of: (Int, TextGeneration).self) { group in
            for choice in 0..<request.choices {
                group.addTask { (choice, try await call(choice)) }
            }
            var answers: [(Int, TextGeneration)] = []
            for try await answer in group { answers.append(answer) }
            answers.sort { $0.0 < $1.0 }
            let first = answers[0].1
            var merged = TextGeneration(
                choices: answers.map(\.1.text), finishReason: first.finishReason, usage: answers.map(\.1.usage).reduce(TokenUsage(), +),
                provider: first.provider, model: first.model, requestID: first.requestID)
            merged.rateLimitWait = answers.compactMap(\.1.rateLimitWait).max()
            return merged
        }
    }

    static func body(_ request: TextGenerationRequest, stream: Bool) -> JSONValue {
        var fields: [String: JSONValue] = [
            "model": .string(request.model),
            "max_tokens": .number(Double(request.maxTokens)),
            "messages": .array(request.messages.map(Self.message)),
            "stream": .bool(stream),
        ]
        var system = request.system ?? ""
        if let schema = request.responseSchema {
            // Messages has no schema parameter: the schema goes into the instructions, and the caller validates.
            system +=
                (system.isEmpty ? "" : "\n\n") + "Answer with one JSON document, and nothing else, that satisfies this JSON Schema:\n"
                + schema.schema.canonicalJSON()
        }
        if !system.isEmpty { fields["system"] = .string(system) }
        if let temperature = request.temperature { fields["temperature"] = .number(temperature) }
        if !request.stopSequences.isEmpty { fields["stop_sequences"] = .array(request.stopSequences.map(JSONValue.string)) }
        return .object(fields)
    }

    private static func message(_ message: ChatMessage) -> JSONValue {
        let content = message.parts.map { part -> JSONValue in
            switch part {
            case .text(let text):
                return .object(["type": "text", "text": .string(text)])
            case .image(let mediaType, let data):
                return .object([
                    "type": "image",
                    "source": .object(["type": "base64", "media_type": .string(mediaType), "data": .string(Data(data).base64EncodedString())]),
                ])
            }
        }
        return .object(["role": .string(message.role.rawValue), "content": .array(content)])
    }

    static func finishReason(_ reason: String?) -> TextGeneration.FinishReason {
        switch reason {
        case "end_turn", "stop_sequence", nil: .stop
        case "max_tokens": .length
        case "refusal": .refused
        case let other?: .other(other)
        }
    }

    static func usage(_ json: JSONValue?) -> TokenUsage {
        TokenUsage(inputTokens: json?["input_tokens"]?.intValue ?? 0, outputTokens: json?["output_tokens"]?.intValue ?? 0)
    }
}

/// Follows one Messages stream: `message_start`, content blocks with their deltas, `message_delta` with the
/// cumulative usage, `message_stop`; `ping` and unknown events are skipped, `error` ends it with that error.
private struct StreamAccumulator {
    let provider: String
    var model: String
    var text = ""
    var usage = TokenUsage()
    var stopReason: String?

    init(provider: String, model: String) {
        self.provider = provider
        self.model = model
    }

    /// Handles one event; returns `true` at `message_stop`.
    mutating func handle(
        _ event: ServerSentEvent, headers: HTTPHeaders, classifier: ProviderFailureClassifier, onText: (String) throws -> Void
    ) throws -> Bool {
        let kind = event.event
        if kind == "ping" { return false }
        // OpenRouter's Anthropic-compatible endpoint adds `[DONE]` after `message_stop`; it never comes first.
        guard event.data != "[DONE]" else { return false }
        guard let json = JSONValue.parse(event.data) else {
            throw ProviderError(
                kind: .malformedResponse, provider: classifier.provider, message: "an event that is not JSON (\(kind ?? "message"))",
                requestID: ProviderFailureClassifier.requestID(headers), isRetryable: true)
        }
        switch kind ?? json["type"]?.stringValue {
        case "message_start":
            let message = json["message"]
            self.model = message?["model"]?.stringValue ?? self.model
            self.usage = AnthropicClient.usage(message?["usage"])
        case "content_block_delta":
            if json["delta"]?["type"]?.stringValue == "text_delta", let piece = json["delta"]?["text"]?.stringValue {
                self.text += piece
                try onText(piece)
            }
        case "message_delta":
            if let reason = json["delta"]?["stop_reason"]?.stringValue { self.stopReason = reason }
            // Usage in message_delta is cumulative: the latest count replaces the earlier one.
            if let output = json["usage"]?["output_tokens"]?.intValue { self.usage.outputTokens = output }
            if let input = json["usage"]?["input_tokens"]?.intValue, input > 0 { self.usage.inputTokens = input }
        case "message_stop":
            return true
        case "error":
            throw classifier.streamError(json, headers: headers)
        default:
            break
        }
        return false
    }

    func generation(requestID: String?) -> TextGeneration {
        TextGeneration(
            choices: [self.text], finishReason: AnthropicClient.finishReason(self.stopReason), usage: self.usage, provider: self.provider,
            model: self.model,
            requestID: requestID)
    }
}
