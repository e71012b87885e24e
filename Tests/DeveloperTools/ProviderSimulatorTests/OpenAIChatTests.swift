import CurlClient
import Foundation
import Testing

@Suite("OpenAI chat completions")
struct OpenAIChatTests {
    static func body(stream: Bool, n: Int = 1, extra: String = "") -> String {
        #"{"model":"gpt-4o-mini","n":\#(n),"stream":\#(stream),"stream_options":{"include_usage":true},"messages":["#
            + #"{"role":"system","content":"You narrate."},"#
            + #"{"role":"user","content":[{"type":"text","text":"What is in this image?"},{"type":"image_url","image_url":{"url":"data:image/png;base64,iVBORw0KGgo="}}]}]\#(extra)}"#
    }

    @Test func nonStreamingAnswerWithTwoChoices() async throws {
        try await withSimulator { simulator in
            let response = try await simulator.send(
                "/v1/chat/completions", json: Self.body(stream: false, n: 2), headers: SimulatorHarness.openAIHeaders)
            #expect(response.status == 200)
            #expect(response.header("x-request-id")?.hasPrefix("req_") == true)
            #expect(response.header("x-ratelimit-reset-requests") == "1s")
            #expect(response.header("x-ratelimit-remaining-tokens") != nil)
            let completion = try jsonObject(response.body)
            #expect(completion["object"] as? String == "chat.completion")
            #expect((completion["id"] as? String)?.hasPrefix("chatcmpl-") == true)
            let choices = try #require(completion["choices"] as? [[String: Any]])
            #expect(choices.map { $0["index"] as? Int } == [0, 1])
            let texts = choices.compactMap { ($0["message"] as? [String: Any])?["content"] as? String }
            #expect(texts.count == 2)
            #expect(texts[0] != texts[1])
            let usage = try #require(completion["usage"] as? [String: Any])
            #expect(usage["prompt_tokens"] as? Int == 7)
            #expect(usage["completion_tokens"] as? Int == texts.map { $0.split(separator: " ").count }.reduce(0, +))
        }
    }

    @Test func streamWithTwoChoicesEndsWithUsageThenDone() async throws {
        try await withSimulator { simulator in
            let plain = try jsonObject(
                try await simulator.send("/v1/chat/completions", json: Self.body(stream: false, n: 2), headers: SimulatorHarness.openAIHeaders).body)
            let expected = (plain["choices"] as? [[String: Any]] ?? []).compactMap { ($0["message"] as? [String: Any])?["content"] as? String }

            let (response, body, error) = try await simulator.stream(
                "/v1/chat/completions", json: Self.body(stream: true, n: 2), headers: SimulatorHarness.openAIHeaders)
            #expect(error == nil)
            #expect(response.header("content-type")?.hasPrefix("text/event-stream") == true)
            let events = SSEParser.parse(body).events
            #expect(events.allSatisfy { $0.name == nil })
            #expect(events.last?.data == "[DONE]")
            var texts = ["", ""]
            var finishes: [Int: String] = [:]
            for event in events.dropLast(2) {
                let chunk = try jsonObject(Array(event.data.utf8))
                #expect(chunk["object"] as? String == "chat.completion.chunk")
                let choices = try #require(chunk["choices"] as? [[String: Any]])
                #expect(choices.count == 1)
                let index = try #require(choices[0]["index"] as? Int)
                if let content = (choices[0]["delta"] as? [String: Any])?["content"] as? String { texts[index] += content }
                if let finish = choices[0]["finish_reason"] as? String { finishes[index] = finish }
            }
            #expect(texts == expected)
            #expect(finishes == [0: "stop", 1: "stop"])
            let usageChunk = try jsonObject(Array(events[events.count - 2].data.utf8))
            #expect((usageChunk["choices"] as? [Any])?.isEmpty == true)
            let usage = try #require(usageChunk["usage"] as? [String: Any])
            #expect(usage["completion_tokens"] as? Int == (plain["usage"] as? [String: Any])?["completion_tokens"] as? Int)
        }
    }

    @Test func jsonSchemaAnswerSatisfiesTheSchema() async throws {
        let format =
            #","response_format":{"type":"json_schema","json_schema":{"name":"scene","strict":true,"schema":{"type":"object","#
            + #""properties":{"narration":{"type":"string","minLength":20,"maxLength":80},"mood":{"type":"string","enum":["calm","tense"]},"#
            + #""danger":{"type":"integer","minimum":1,"maximum":5},"loot":{"type":"array","minItems":1,"maxItems":2,"items":{"type":"string"}},"#
            + #""lit":{"type":"boolean"}},"required":["narration","mood","danger","loot","lit"],"additionalProperties":false}}}"#
        try await withSimulator { simulator in
            let response = try await simulator.send(
                "/v1/chat/completions", json: Self.body(stream: false, extra: format), headers: SimulatorHarness.openAIHeaders)
            let completion = try jsonObject(response.body)
            let content = try #require(((completion["choices"] as? [[String: Any]])?.first?["message"] as? [String: Any])?["content"] as? String)
            let scene = try jsonObject(Array(content.utf8))
            let narration = try #require(scene["narration"] as? String)
            #expect((20...80).contains(narration.count))
            #expect(["calm", "tense"].contains(scene["mood"] as? String ?? ""))
            #expect((1...5).contains(scene["danger"] as? Int ?? 0))
            #expect((1...2).contains((scene["loot"] as? [String])?.count ?? 0))
            #expect(scene["lit"] is Bool)
        }
    }

    @Test func missingKeyGetsTheRealError() async throws {
        try await withSimulator { simulator in
            let response = try await simulator.send("/v1/chat/completions", json: Self.body(stream: false))
            #expect(response.status == 401)
            let error = try #require(try jsonObject(response.body)["error"] as? [String: Any])
            #expect(error["type"] as? String == "invalid_request_error")
            #expect(error.keys.sorted() == ["code", "message", "param", "type"])
        }
    }
}
