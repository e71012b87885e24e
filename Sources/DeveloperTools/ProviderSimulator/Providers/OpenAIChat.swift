import Foundation
import Hummingbird
import KilnJSON

/// `POST /v1/chat/completions`: OpenAI's chat completions, also spoken by xAI, vLLM, Ollama and the other
/// compatible servers (§2 of the wire-format reference).
enum OpenAIChat {
    static let refusalText = "I'm sorry, but I can't help with that request."

    static func respond(to exchange: Exchange) async throws -> Response {
        guard let authorization = exchange.header("authorization"), authorization.hasPrefix("Bearer "), authorization.count > 7 else {
            throw Rejection(
                exchange.provider.errorResponse(
                    status: 401,
                    message:
                        "You didn't provide an API key. You need to provide your API key in an Authorization header using Bearer auth (i.e. Authorization: Bearer YOUR_KEY), or as the password field (with blank username) if you're accessing the API from your browser and are prompted for a username.",
                    requestID: exchange.requestID))
        }
        let body = try exchange.json()
        guard let model = body["model"]?.stringValue else { throw exchange.badRequest("you must provide a model parameter") }
        guard let messages = body["messages"]?.arrayValue, !messages.isEmpty else {
            throw exchange.badRequest("[] is too short - 'messages'")
        }
        let choiceCount = body["n"]?.intValue ?? 1
        guard (1...128).contains(choiceCount) else { throw exchange.badRequest("\(choiceCount) is not a valid value for 'n'") }
        let prompt = Self.promptText(messages)
        let fault = try exchange.fault(model: model, prompt: prompt)
        if let response = try await exchange.interrupt(for: fault) { return response }

        let cleanPrompt = FaultDirective.stripped(prompt)
        let maxTokens = body["max_completion_tokens"]?.intValue ?? body["max_tokens"]?.intValue
        let stops = body["stop"]?.stringValue.map { [$0] } ?? body["stop"]?.arrayValue?.compactMap(\.stringValue) ?? []
        let refusing = fault?.mode == .refusal
        let choices = (0..<choiceCount).map { index in
            let seed = "\(model)\n\(cleanPrompt)\n\(index)"
            let text =
                refusing
                ? Self.refusalText
                : Self.content(format: body["response_format"], seed: seed, fenced: fault?.mode == .fencedJSON, broken: fault?.mode == .invalidJSON)
            return Completion(generated: text, maxTokens: maxTokens, stopSequences: refusing ? [] : stops)
        }
        let promptTokens = TokenCount.words(in: cleanPrompt)
        let completionTokens = choices.map(\.outputTokens).reduce(0, +)
        let usage: JSONValue = .object([
            "prompt_tokens": .number(Double(promptTokens)), "completion_tokens": .number(Double(completionTokens)),
            "total_tokens": .number(Double(promptTokens + completionTokens)),
            "prompt_tokens_details": .object(["cached_tokens": 0, "audio_tokens": 0]),
            "completion_tokens_details": .object([
                "reasoning_tokens": 0, "audio_tokens": 0, "accepted_prediction_tokens": 0, "rejected_prediction_tokens": 0,
            ]),
        ])
        let id = Provider.identifier("chatcmpl-", seed: "completion/\(exchange.sequence)", length: 29)
        let created = JSONValue.number(Double(Int(Date().timeIntervalSince1970)))

        guard body["stream"] == .bool(true) else {
            let rendered: [JSONValue] = choices.enumerated().map { index, choice in
                let message: JSONValue =
                    refusing
                    ? .object(["role": "assistant", "content": .null, "refusal": .string(choice.text), "annotations": .array([])])
                    : .object(["role": "assistant", "content": .string(choice.text), "refusal": .null, "annotations": .array([])])
                return .object([
                    "index": .number(Double(index)), "message": message, "logprobs": .null, "finish_reason": .string(Self.finishReason(choice.stop)),
                ])
            }
            let completion: JSONValue = .object([
                "id": .string(id), "object": "chat.completion", "created": created, "model": .string(model), "choices": .array(rendered),
                "usage": usage, "service_tier": "default", "system_fingerprint": "fp_kiln_sim",
            ])
            return exchange.answer(completion, fault: fault)
        }

        let includeUsage = body["stream_options"]?["include_usage"] == .bool(true)
        func chunk(_ choices: [JSONValue], usage: JSONValue = .null) -> SSEEvent {
            var fields: [String: JSONValue] = [
                "id": .string(id), "object": "chat.completion.chunk", "created": created, "model": .string(model), "service_tier": "default",
                "system_fingerprint": "fp_kiln_sim", "choices": .array(choices),
            ]
            // The real API adds the `usage` key to every chunk only when usage was asked for.
            if includeUsage { fields["usage"] = usage }
            return .data(.object(fields))
        }
        func choiceDelta(_ index: Int, _ delta: JSONValue, finish: JSONValue = .null) -> JSONValue {
            .object(["index": .number(Double(index)), "delta": delta, "logprobs": .null, "finish_reason": finish])
        }
        let field = refusing ? "refusal" : "content"
        var events = (0..<choices.count).map { chunk([choiceDelta($0, .object(["role": "assistant", "content": "", "refusal": .null]))]) }
        // Choices interleave piece by piece, as the real API's do, so clients must accumulate by index.
        for position in 0..<(choices.map(\.pieces.count).max() ?? 0) {
            for (index, choice) in choices.enumerated() where position < choice.pieces.count {
                events.append(chunk([choiceDelta(index, .object([field: .string(choice.pieces[position])]))]))
            }
        }
        for (index, choice) in choices.enumerated() {
            events.append(chunk([choiceDelta(index, .object([:]), finish: .string(Self.finishReason(choice.stop)))]))
        }
        if includeUsage { events.append(chunk([], usage: usage)) }
        events.append(SSEEvent(data: "[DONE]"))
        let stream = EventStream(
            events: events, terminalEvents: 1, keepAlive: SSEEvent(comment: "keep-alive"),
            inBandError: .data(
                .object([
                    "error": .object([
                        "message": "The server had an error while processing your request. Sorry about that!", "type": "server_error", "param": .null,
                        "code": .null,
                    ])
                ])),
            malformed: SSEEvent(data: #"{"id":"\#(id)","object":"chat.completion.chunk","choices":[{"index":0,"delta":{"content":"#))
        return exchange.stream(stream, fault: fault)
    }

    static func finishReason(_ stop: Completion.Stop) -> String {
        stop == .maxTokens ? "length" : "stop"
    }

    /// Prose, or JSON for `json_schema` (an instance of the schema) and `json_object`; `broken` cuts the JSON short.
    static func content(format: JSONValue?, seed: String, fenced: Bool, broken: Bool = false) -> String {
        var json: String?
        switch format?["type"]?.stringValue {
        case "json_schema":
            var generator = SchemaInstanceGenerator(schema: format?["json_schema"]?["schema"] ?? .object(["type": "object"]), seed: seed)
            json = generator.instance().canonicalJSON()
        case "json_object":
            var writer = StoryWriter(seed: seed)
            json = JSONValue.object(["narration": .string(writer.passage())]).canonicalJSON()
        default:
            break
        }
        guard var json else {
            var writer = StoryWriter(seed: seed)
            let passage = writer.passage()
            return fenced ? "```json\n\(JSONValue.object(["narration": .string(passage)]).canonicalJSON())\n```" : passage
        }
        if broken { json = StructuredContent.broken(json) }
        return fenced ? "```json\n\(json)\n```" : json
    }

    /// The text of every message, string content or `text` parts, one per line; image parts are accepted and
    /// ignored.
    static func promptText(_ messages: [JSONValue]) -> String {
        var texts: [String] = []
        for message in messages {
            if let text = message["content"]?.stringValue {
                texts.append(text)
            } else {
                for part in message["content"]?.arrayValue ?? [] where part["type"]?.stringValue == "text" {
                    if let text = part["text"]?.stringValue { texts.append(text) }
                }
            }
        }
        return texts.joined(separator: "\n")
    }
}
