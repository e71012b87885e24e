import Hummingbird
import KilnJSON

/// `POST /v1beta/models/{model}:generateContent` and `:streamGenerateContent` (SSE with `?alt=sse`, else a JSON
/// array), §6 of the wire-format reference. camelCase and snake_case request fields are both accepted.
enum GeminiGenerate {
    static func respond(to exchange: Exchange, target: String) async throws -> Response {
        guard let colon = target.lastIndex(of: ":") else { throw exchange.badRequest("Invalid model path.") }
        let model = String(target[..<colon])
        let method = target[target.index(after: colon)...]
        guard method == "generateContent" || method == "streamGenerateContent" else {
            throw Rejection(exchange.provider.errorResponse(status: 404, message: "Method not found.", requestID: exchange.requestID))
        }
        guard let key = exchange.header("x-goog-api-key") ?? exchange.query("key"), !key.isEmpty else {
            // Gemini answers a missing key with 403 PERMISSION_DENIED, not 401.
            throw Rejection(exchange.provider.errorResponse(status: 403, requestID: exchange.requestID))
        }
        let body = try exchange.json()
        func field(_ camel: String, _ snake: String, in object: JSONValue?) -> JSONValue? {
            object?[camel] ?? object?[snake]
        }
        guard let contents = body["contents"]?.arrayValue, !contents.isEmpty else {
            throw exchange.badRequest("* GenerateContentRequest.contents: contents is not specified")
        }
        var texts: [String] = []
        let system = field("systemInstruction", "system_instruction", in: body)
        for content in [system].compactMap({ $0 }) + contents {
            for part in content["parts"]?.arrayValue ?? [] {
                if let text = part["text"]?.stringValue { texts.append(text) }
            }
        }
        let prompt = texts.joined(separator: "\n")
        let fault = try exchange.fault(model: model, prompt: prompt)
        if let response = try await exchange.interrupt(for: fault) { return response }

        let config = field("generationConfig", "generation_config", in: body)
        let maxTokens = field("maxOutputTokens", "max_output_tokens", in: config)?.intValue
        let stops = field("stopSequences", "stop_sequences", in: config)?.arrayValue?.compactMap(\.stringValue) ?? []
        let candidateCount = field("candidateCount", "candidate_count", in: config)?.intValue ?? 1
        guard (1...8).contains(candidateCount) else { throw exchange.badRequest("candidateCount must be between 1 and 8.") }
        let schema = field("responseSchema", "response_schema", in: config) ?? field("responseJsonSchema", "response_json_schema", in: config)
        let wantsJSON = field("responseMimeType", "response_mime_type", in: config)?.stringValue == "application/json" || schema != nil
        let cleanPrompt = FaultDirective.stripped(prompt)
        let candidates = (0..<candidateCount).map { index in
            let seed = "\(model)\n\(cleanPrompt)\n\(index)"
            var text: String
            if let schema {
                var generator = SchemaInstanceGenerator(schema: schema, seed: seed)
                text = generator.instance().canonicalJSON()
            } else if wantsJSON {
                var writer = StoryWriter(seed: seed)
                text = JSONValue.object(["narration": .string(writer.passage())]).canonicalJSON()
            } else {
                var writer = StoryWriter(seed: seed)
                text = writer.passage()
            }
            if fault?.mode == .invalidJSON, wantsJSON { text = StructuredContent.broken(text) }
            if fault?.mode == .fencedJSON { text = "```json\n\(text)\n```" }
            return Completion(generated: text, maxTokens: maxTokens, stopSequences: stops)
        }
        let promptTokens = TokenCount.words(in: cleanPrompt)
        let outputTokens = candidates.map(\.outputTokens).reduce(0, +)
        let responseID = Provider.identifier("", seed: "response/\(exchange.sequence)", length: 22)
        func usage(_ output: Int) -> JSONValue {
            .object([
                "promptTokenCount": .number(Double(promptTokens)), "candidatesTokenCount": .number(Double(output)),
                "totalTokenCount": .number(Double(promptTokens + output)),
            ])
        }
        func response(_ candidates: [JSONValue], usage: JSONValue) -> JSONValue {
            .object(["candidates": .array(candidates), "usageMetadata": usage, "modelVersion": .string(model), "responseId": .string(responseID)])
        }
        func candidate(_ index: Int, text: String, finish: Completion.Stop?) -> JSONValue {
            var fields: [String: JSONValue] = [
                "content": .object(["parts": .array([.object(["text": .string(text)])]), "role": "model"]), "index": .number(Double(index)),
            ]
            if let finish { fields["finishReason"] = finish == .maxTokens ? "MAX_TOKENS" : "STOP" }
            return .object(fields)
        }

        guard method == "streamGenerateContent" else {
            let rendered = candidates.enumerated().map { candidate($0, text: $1.text, finish: $1.stop) }
            return exchange.answer(response(rendered, usage: usage(outputTokens)), fault: fault)
        }
        var chunks: [JSONValue] = []
        var streamed = 0
        for position in 0..<(candidates.map(\.pieces.count).max() ?? 0) {
            for (index, completion) in candidates.enumerated() where position < completion.pieces.count {
                streamed += 1
                chunks.append(response([candidate(index, text: completion.pieces[position], finish: nil)], usage: usage(streamed)))
            }
        }
        // The last chunk carries the finish reasons and the full usage, and no new text, so dropping it
        // (`no_final_event`) loses only the marker.
        chunks.append(response(candidates.enumerated().map { candidate($0, text: "", finish: $1.stop) }, usage: usage(outputTokens)))
        guard exchange.query("alt") == "sse" else {
            // Without alt=sse the stream is one JSON array, written as it grows.
            let array = "[" + chunks.map { $0.canonicalJSON() }.joined(separator: ",\r\n") + "]"
            return exchange.answer(bytes: Array(array.utf8), contentType: "application/json; charset=UTF-8", fault: fault)
        }
        let stream = EventStream(
            events: chunks.map { SSEEvent.data($0) }, terminalEvents: 1, keepAlive: SSEEvent(comment: "keep-alive"),
            inBandError: .data(exchange.provider.errorBody(status: 503, requestID: exchange.requestID.value)),
            malformed: SSEEvent(data: #"{"candidates":[{"content":{"parts":[{"text":"#))
        return exchange.stream(stream, fault: fault, contentType: "text/event-stream")
    }
}
