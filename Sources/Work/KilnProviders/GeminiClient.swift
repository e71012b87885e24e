public import CurlClient
import Foundation
import KilnJSON
import Locking

/// Google Gemini: `POST /v1beta/models/{model}:generateContent`, and `:streamGenerateContent?alt=sse` for a stream
/// of the same response shape, the last chunk carrying `finishReason` and the full `usageMetadata`.
///
/// Several choices are `candidateCount`; a response schema is `responseMimeType: application/json` with
/// `responseSchema`.
public struct GeminiClient: TextProvider {
    public let name: String
    private let transport: ProviderTransport

    public init(http: HTTPClient, endpoint: ProviderEndpoint, name: String = "gemini") {
        self.name = name
        self.transport = ProviderTransport(http: http, endpoint: endpoint, provider: name)
    }

    public func generate(_ request: TextGenerationRequest) async throws -> TextGeneration {
        let (json, headers) = try await self.transport.sendJSON(
            path: "/v1beta/models/\(request.model):generateContent", headers: self.headers, body: Self.body(request))
        var answer = Answer(choices: request.choices)
        guard answer.add(json) else { throw self.transport.malformed("the answer has no candidates", headers: headers) }
        return answer.generation(provider: self.name, model: request.model, requestID: ProviderFailureClassifier.requestID(headers))
    }

    public func stream(
        _ request: TextGenerationRequest, onDelta: @escaping @Sendable (TextDelta) throws -> Void
    ) async throws -> TextGeneration {
        let answer = Locked(Answer(choices: request.choices))
        let headers = try await self.transport.stream(
            path: "/v1beta/models/\(request.model):streamGenerateContent?alt=sse", headers: self.headers, body: Self.body(request)
        ) { event, headers in
            guard let json = JSONValue.parse(event.data) else { throw self.transport.malformed("a chunk that is not JSON", headers: headers) }
            if json["error"] != nil { throw self.transport.classifier.streamError(json, headers: headers) }
            return try answer.withLock { answer in
                for (index, piece) in answer.pieces(of: json) { try onDelta(TextDelta(choice: index, text: piece)) }
                guard answer.add(json) else { throw self.transport.malformed("a chunk without candidates", headers: headers) }
                // The stream has no end marker of its own: the chunk with a finish reason is the last.
                return answer.isFinished
            }
        }
        return answer.withLock {
            $0.generation(provider: self.name, model: request.model, requestID: ProviderFailureClassifier.requestID(headers))
        }
    }

    private var headers: HTTPHeaders {
        ["x-goog-api-key": self.transport.endpoint.apiKey]
    }

    static func body(_ request: TextGenerationRequest) -> JSONValue {
        let contents = request.messages.map { message -> JSONValue in
            let parts = message.parts.map { part -> JSONValue in
                switch part {
                case .text(let text): .object(["text": .string(text)])
                case .image(let mediaType, let data):
                    .object(["inlineData": .object(["mimeType": .string(mediaType), "data": .string(Data(data).base64EncodedString())])])
                }
            }
            return .object(["role": .string(message.role == .user ? "user" : "model"), "parts": .array(parts)])
        }
        var configuration: [String: JSONValue] = [
            "maxOutputTokens": .number(Double(request.maxTokens)), "candidateCount": .number(Double(request.choices)),
        ]
        if let temperature = request.temperature { configuration["temperature"] = .number(temperature) }
        if !request.stopSequences.isEmpty { configuration["stopSequences"] = .array(request.stopSequences.map(JSONValue.string)) }
        if let schema = request.responseSchema {
            configuration["responseMimeType"] = "application/json"
            configuration["responseSchema"] = schema.schema
        }
        var fields: [String: JSONValue] = ["contents": .array(contents), "generationConfig": .object(configuration)]
        if let system = request.system { fields["systemInstruction"] = .object(["parts": .array([.object(["text": .string(system)])])]) }
        return .object(fields)
    }
}

/// Gemini's candidates added up, whole or chunk by chunk.
private struct Answer {
    var texts: [String]
    var reasons: [String?]
    var usage = TokenUsage()

    init(choices: Int) {
        self.texts = Array(repeating: "", count: max(1, choices))
        self.reasons = Array(repeating: nil, count: max(1, choices))
    }

    var isFinished: Bool { self.reasons.allSatisfy { $0 != nil } }

    /// The text of each candidate in `json`, by index.
    func pieces(of json: JSONValue) -> [(Int, String)] {
        (json["candidates"]?.arrayValue ?? []).enumerated().compactMap { position, candidate in
            let index = candidate["index"]?.intValue ?? position
            let text = (candidate["content"]?["parts"]?.arrayValue ?? []).compactMap { $0["text"]?.stringValue }.joined()
            return text.isEmpty || !self.texts.indices.contains(index) ? nil : (index, text)
        }
    }

    /// Adds a response or chunk; `false` when it has no candidates.
    mutating func add(_ json: JSONValue) -> Bool {
        guard let candidates = json["candidates"]?.arrayValue, !candidates.isEmpty else { return false }
        for (index, text) in self.pieces(of: json) { self.texts[index] += text }
        for (position, candidate) in candidates.enumerated() {
            let index = candidate["index"]?.intValue ?? position
            if self.texts.indices.contains(index), let reason = candidate["finishReason"]?.stringValue { self.reasons[index] = reason }
        }
        if let metadata = json["usageMetadata"] {
            self.usage = TokenUsage(
                inputTokens: metadata["promptTokenCount"]?.intValue ?? 0, outputTokens: metadata["candidatesTokenCount"]?.intValue ?? 0)
        }
        return true
    }

    func generation(provider: String, model: String, requestID: String?) -> TextGeneration {
        let finish: TextGeneration.FinishReason =
            switch self.reasons.first ?? nil {
            case "STOP", nil: .stop
            case "MAX_TOKENS": .length
            case "SAFETY", "PROHIBITED_CONTENT", "BLOCKLIST": .refused
            case let other?: .other(other)
            }
        return TextGeneration(choices: self.texts, finishReason: finish, usage: self.usage, provider: provider, model: model, requestID: requestID)
    }
}
