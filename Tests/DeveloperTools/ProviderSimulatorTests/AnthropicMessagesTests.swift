import CurlClient
import Foundation
import Testing

@Suite("Anthropic Messages")
struct AnthropicMessagesTests {
    static func body(
        stream: Bool, maxTokens: Int = 1024, prompt: String = "Describe the map and what the party sees.", extra: String = ""
    )
        -> String
    {
        #"{"model":"claude-sonnet-4-5","max_tokens":\#(maxTokens),"stream":\#(stream),"system":"You are the dungeon master.","#
            + #""messages":[{"role":"user","content":[{"type":"image","source":{"type":"url","url":"https://example.com/map.jpg"}},"#
            + #"{"type":"text","text":"\#(prompt)"}]}]\#(extra)}"#
    }

    @Test func nonStreamingAnswerHasTheMessageShapeAndHeaders() async throws {
        try await withSimulator { simulator in
            let response = try await simulator.send("/v1/messages", json: Self.body(stream: false), headers: SimulatorHarness.anthropicHeaders)
            #expect(response.status == 200)
            #expect(response.header("request-id")?.hasPrefix("req_") == true)
            #expect(response.header("anthropic-ratelimit-requests-limit") != nil)
            #expect(response.header("anthropic-ratelimit-requests-remaining") != nil)
            #expect(response.header("anthropic-ratelimit-tokens-reset") != nil)
            let message = try jsonObject(response.body)
            #expect(message["type"] as? String == "message")
            #expect((message["id"] as? String)?.hasPrefix("msg_") == true)
            #expect(message["stop_reason"] as? String == "end_turn")
            let content = try #require(message["content"] as? [[String: Any]])
            let text = try #require(content.first?["text"] as? String)
            let words = text.split(separator: " ").count
            #expect((40...130).contains(words))
            let usage = try #require(message["usage"] as? [String: Any])
            // "You are the dungeon master." + "Describe the map and what the party sees." = 5 + 8 words.
            #expect(usage["input_tokens"] as? Int == 13)
            #expect(usage["output_tokens"] as? Int == words)
        }
    }

    @Test func streamHasTheExactEventSequenceAndMatchesTheNonStreamedText() async throws {
        try await withSimulator { simulator in
            let plain = try await simulator.send("/v1/messages", json: Self.body(stream: false), headers: SimulatorHarness.anthropicHeaders)
            let expected = try #require((try jsonObject(plain.body)["content"] as? [[String: Any]])?.first?["text"] as? String)

            let (response, body, error) = try await simulator.stream(
                "/v1/messages", json: Self.body(stream: true), headers: SimulatorHarness.anthropicHeaders)
            #expect(error == nil)
            #expect(response.status == 200)
            #expect(response.header("content-type") == "text/event-stream; charset=utf-8")
            let events = SSEParser.parse(body).events
            let names = events.map { $0.name ?? "" }
            let deltas = names.filter { $0 == "content_block_delta" }.count
            #expect(
                names == ["message_start", "content_block_start", "ping"] + Array(repeating: "content_block_delta", count: deltas)
                    + ["content_block_stop", "message_delta", "message_stop"])
            var text = ""
            for event in events {
                let data = try jsonObject(Array(event.data.utf8))
                #expect(data["type"] as? String == event.name)
                if event.name == "content_block_delta", let delta = data["delta"] as? [String: Any] {
                    text += try #require(delta["text"] as? String)
                }
                if event.name == "message_delta" {
                    #expect((data["usage"] as? [String: Any])?["output_tokens"] as? Int == deltas)
                    #expect((data["delta"] as? [String: Any])?["stop_reason"] as? String == "end_turn")
                }
            }
            #expect(text == expected)
        }
    }

    @Test func maxTokensCutsTheAnswer() async throws {
        try await withSimulator { simulator in
            let response = try await simulator.send(
                "/v1/messages", json: Self.body(stream: false, maxTokens: 5), headers: SimulatorHarness.anthropicHeaders)
            let message = try jsonObject(response.body)
            #expect(message["stop_reason"] as? String == "max_tokens")
            let text = try #require((message["content"] as? [[String: Any]])?.first?["text"] as? String)
            #expect(text.split(separator: " ").count == 5)
            #expect((message["usage"] as? [String: Any])?["output_tokens"] as? Int == 5)
        }
    }

    @Test func stopSequenceEndsTheAnswerBeforeIt() async throws {
        try await withSimulator { simulator in
            let plain = try jsonObject(
                try await simulator.send("/v1/messages", json: Self.body(stream: false), headers: SimulatorHarness.anthropicHeaders).body)
            let full = try #require((plain["content"] as? [[String: Any]])?.first?["text"] as? String)
            let words = full.split(separator: " ")
            let stop = String(words[3])
            let response = try await simulator.send(
                "/v1/messages", json: Self.body(stream: false, extra: #","stop_sequences":["\#(stop)"]"#), headers: SimulatorHarness.anthropicHeaders)
            let message = try jsonObject(response.body)
            #expect(message["stop_reason"] as? String == "stop_sequence")
            #expect(message["stop_sequence"] as? String == stop)
            let text = try #require((message["content"] as? [[String: Any]])?.first?["text"] as? String)
            #expect(!text.contains(stop))
            #expect(full.hasPrefix(text))
        }
    }

    @Test func missingKeyGetsTheRealAuthenticationError() async throws {
        try await withSimulator { simulator in
            let response = try await simulator.send("/v1/messages", json: Self.body(stream: false), headers: ["anthropic-version": "2023-06-01"])
            #expect(response.status == 401)
            let body = try jsonObject(response.body)
            #expect(body["type"] as? String == "error")
            #expect((body["error"] as? [String: Any])?["type"] as? String == "authentication_error")
            #expect((body["request_id"] as? String)?.hasPrefix("req_") == true)
        }
    }

    @Test func sameRequestSameAnswer() async throws {
        try await withSimulator { simulator in
            let first = try await simulator.send("/v1/messages", json: Self.body(stream: false), headers: SimulatorHarness.anthropicHeaders)
            let second = try await simulator.send("/v1/messages", json: Self.body(stream: false), headers: SimulatorHarness.anthropicHeaders)
            let other = try await simulator.send(
                "/v1/messages", json: Self.body(stream: false, prompt: "Something else entirely."), headers: SimulatorHarness.anthropicHeaders)
            func text(_ response: CurlClient.HTTPResponse) throws -> String? {
                (try jsonObject(response.body)["content"] as? [[String: Any]])?.first?["text"] as? String
            }
            #expect(try text(first) == text(second))
            #expect(try text(first) != text(other))
        }
    }
}
