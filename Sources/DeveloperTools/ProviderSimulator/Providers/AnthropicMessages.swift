import Hummingbird
import KilnJSON

/// `POST /v1/messages`: Anthropic's Messages API, JSON or SSE (§1 of the wire-format reference).
enum AnthropicMessages {
    static func respond(to exchange: Exchange) async throws -> Response {
        guard let key = exchange.header("x-api-key"), !key.isEmpty else {
            throw Rejection(exchange.provider.errorResponse(status: 401, message: "x-api-key header is required", requestID: exchange.requestID))
        }
        let body = try exchange.json()
        guard let model = body["model"]?.stringValue else { throw exchange.badRequest("model: Field required") }
        guard let maxTokens = body["max_tokens"]?.intValue else { throw exchange.badRequest("max_tokens: Field required") }
        guard let messages = body["messages"]?.arrayValue, !messages.isEmpty else { throw exchange.badRequest("messages: Field required") }
        let prompt = Self.promptText(system: body["system"], messages: messages)
        let fault = try exchange.fault(model: model, prompt: prompt)
        if let response = try await exchange.interrupt(for: fault) { return response }

        let cleanPrompt = FaultDirective.stripped(prompt)
        let seed = "\(model)\n\(cleanPrompt)\n0"
        var generated: String
        if let schema = body["system"]?.stringValue.flatMap(StructuredContent.schema(inInstructions:)) {
            // A schema in the instructions is followed, as a model that reads them would.
            var generator = SchemaInstanceGenerator(schema: schema, seed: seed)
            generated = generator.instance().canonicalJSON()
            if fault?.mode == .invalidJSON { generated = StructuredContent.broken(generated) }
            if fault?.mode == .fencedJSON { generated = "```json\n\(generated)\n```" }
        } else {
            var writer = StoryWriter(seed: seed)
            generated = writer.passage()
            if fault?.mode == .fencedJSON { generated = "```json\n{\"narration\": \"\(generated)\"}\n```" }
        }
        let stops = body["stop_sequences"]?.arrayValue?.compactMap(\.stringValue) ?? []
        let completion = Completion(generated: generated, maxTokens: maxTokens, stopSequences: stops)
        let inputTokens = TokenCount.words(in: cleanPrompt)
        let id = Provider.identifier("msg_", seed: "message/\(exchange.sequence)")
        let (stopReason, stopSequence) = Self.stopReason(completion.stop)
        let usage: JSONValue = .object([
            "input_tokens": .number(Double(inputTokens)), "cache_creation_input_tokens": 0, "cache_read_input_tokens": 0,
            "output_tokens": .number(Double(completion.outputTokens)),
        ])

        guard body["stream"] == .bool(true) else {
            let message: JSONValue = .object([
                "id": .string(id), "type": "message", "role": "assistant", "model": .string(model),
                "content": .array([.object(["type": "text", "text": .string(completion.text)])]), "stop_reason": .string(stopReason),
                "stop_sequence": stopSequence, "usage": usage,
            ])
            return exchange.answer(message, fault: fault)
        }
        var events: [SSEEvent] = [
            .data(
                .object([
                    "type": "message_start",
                    "message": .object([
                        "id": .string(id), "type": "message", "role": "assistant", "content": .array([]), "model": .string(model),
                        "stop_reason": .null, "stop_sequence": .null,
                        "usage": .object([
                            "input_tokens": .number(Double(inputTokens)), "cache_creation_input_tokens": 0, "cache_read_input_tokens": 0,
                            "output_tokens": 1,
                        ]),
                    ]),
                ]), name: "message_start"),
            .data(
                .object(["type": "content_block_start", "index": 0, "content_block": .object(["type": "text", "text": ""])]),
                name: "content_block_start"),
            Self.ping,
        ]
        for piece in completion.pieces { events.append(Self.textDelta(piece)) }
        events.append(.data(.object(["type": "content_block_stop", "index": 0]), name: "content_block_stop"))
        events.append(
            .data(
                .object([
                    "type": "message_delta", "delta": .object(["stop_reason": .string(stopReason), "stop_sequence": stopSequence]),
                    "usage": .object(["output_tokens": .number(Double(completion.outputTokens))]),
                ]), name: "message_delta"))
        events.append(.data(.object(["type": "message_stop"]), name: "message_stop"))
        let stream = EventStream(
            events: events, terminalEvents: 1, keepAlive: Self.ping,
            inBandError: .data(.object(["type": "error", "error": .object(["type": "overloaded_error", "message": "Overloaded"])]), name: "error"),
            malformed: SSEEvent(name: "content_block_delta", data: #"{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"#))
        return exchange.stream(stream, fault: fault)
    }

    /// A `content_block_delta` of `text`: the canonical JSON of its document, written from a template. A streaming
    /// call's events are all built as it starts, about a hundred of them, and building each delta's document to print
    /// it would be the largest part of that.
    static func textDelta(_ text: String) -> SSEEvent {
        SSEEvent(
            name: "content_block_delta",
            data: #"{"delta":{"text":"# + JSONValue.string(text).canonicalJSON() + #","type":"text_delta"},"index":0,"type":"content_block_delta"}"#)
    }

    /// Anthropic writes its ping with a space after the colon.
    static let ping = SSEEvent(name: "ping", data: #"{"type": "ping"}"#)

    static func stopReason(_ stop: Completion.Stop) -> (reason: String, sequence: JSONValue) {
        switch stop {
        case .end: ("end_turn", .null)
        case .maxTokens: ("max_tokens", .null)
        case .stopSequence(let sequence): ("stop_sequence", .string(sequence))
        }
    }

    /// The system prompt and every text block of every message, one per line; images are accepted and ignored.
    static func promptText(system: JSONValue?, messages: [JSONValue]) -> String {
        var texts: [String] = []
        func collect(_ content: JSONValue?) {
            if let text = content?.stringValue {
                texts.append(text)
            } else {
                for block in content?.arrayValue ?? [] where block["type"]?.stringValue == "text" {
                    if let text = block["text"]?.stringValue { texts.append(text) }
                }
            }
        }
        collect(system)
        for message in messages { collect(message["content"]) }
        return texts.joined(separator: "\n")
    }
}
