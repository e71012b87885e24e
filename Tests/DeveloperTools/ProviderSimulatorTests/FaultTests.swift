import CurlClient
import Foundation
import Testing

@Suite("Faults over the wire")
struct FaultTests {
    static let anthropic = AnthropicMessagesTests.body(stream: false, maxTokens: 12)
    static let anthropicStream = AnthropicMessagesTests.body(stream: true, maxTokens: 12)
    static let openAIStream = OpenAIChatTests.body(stream: true)

    func anthropic(_ simulator: SimulatorHarness, fault: String?, timeout: Duration = .seconds(30)) async throws -> CurlClient.HTTPResponse {
        try await simulator.send(
            "/v1/messages", json: Self.anthropic, headers: SimulatorHarness.headers(SimulatorHarness.anthropicHeaders, fault: fault), timeout: timeout
        )
    }

    @Test func rateLimitAnswers429WithRetryAfterAndEmptyBuckets() async throws {
        try await withSimulator { simulator in
            let response = try await anthropic(simulator, fault: "rate_limit")
            #expect(response.status == 429)
            #expect(response.header("retry-after") == "7")
            #expect(response.header("anthropic-ratelimit-requests-remaining") == "0")
            let body = try jsonObject(response.body)
            #expect((body["error"] as? [String: Any])?["type"] as? String == "rate_limit_error")

            let openAI = try await simulator.send(
                "/v1/chat/completions", json: OpenAIChatTests.body(stream: false),
                headers: SimulatorHarness.headers(SimulatorHarness.openAIHeaders, fault: "rate_limit; retry_after=3; retry_after_ms=2500"))
            #expect(openAI.status == 429)
            #expect(openAI.header("retry-after") == "3")
            #expect(openAI.header("retry-after-ms") == "2500")
            #expect(openAI.header("x-ratelimit-remaining-requests") == "0")
            #expect(openAI.header("x-ratelimit-reset-requests") == "3s")
        }
    }

    @Test func rateLimitVariants() async throws {
        try await withSimulator { simulator in
            let dated = try await anthropic(simulator, fault: "rate_limit; http_date=1")
            #expect(dated.header("retry-after")?.hasSuffix(" GMT") == true)
            let bare = try await anthropic(simulator, fault: "rate_limit; no_header=1")
            #expect(bare.status == 429)
            #expect(bare.header("retry-after") == nil)
        }
    }

    @Test func timesLetsTheRetrySucceed() async throws {
        try await withSimulator { simulator in
            let fault = "overloaded; times=1; key=retry-test"
            let status1 = try await anthropic(simulator, fault: fault).status
            #expect(status1 == 529)
            let status2 = try await anthropic(simulator, fault: fault).status
            #expect(status2 == 200)
            let status3 = try await anthropic(simulator, fault: fault).status
            #expect(status3 == 200)
        }
    }

    @Test func promptDirectiveInjectsTheFaultAndDoesNotChangeTheAnswer() async throws {
        try await withSimulator { simulator in
            let prompt = "Describe the map and what the party sees. [[fault: server_error; times=1; key=directive]]"
            let body = AnthropicMessagesTests.body(stream: false, prompt: prompt)
            let first = try await simulator.send("/v1/messages", json: body, headers: SimulatorHarness.anthropicHeaders)
            #expect(first.status == 500)
            #expect((try jsonObject(first.body)["error"] as? [String: Any])?["type"] as? String == "api_error")
            let second = try await simulator.send("/v1/messages", json: body, headers: SimulatorHarness.anthropicHeaders)
            #expect(second.status == 200)
            let plain = try await simulator.send(
                "/v1/messages", json: AnthropicMessagesTests.body(stream: false), headers: SimulatorHarness.anthropicHeaders)
            #expect(try jsonObject(second.body)["content"] as? [[String: String]] == jsonObject(plain.body)["content"] as? [[String: String]])
        }
    }

    @Test func quotaExhaustionIsTheNonRetryableVariant() async throws {
        try await withSimulator { simulator in
            let anthropic = try await anthropic(simulator, fault: "quota_exhausted")
            #expect(anthropic.status == 429)
            let error = try #require(try jsonObject(anthropic.body)["error"] as? [String: Any])
            #expect((error["details"] as? [String: Any])?["error_code"] as? String == "enforced_spend_limit_reached")
            let openAI = try await simulator.send(
                "/v1/chat/completions", json: OpenAIChatTests.body(stream: false),
                headers: SimulatorHarness.headers(SimulatorHarness.openAIHeaders, fault: "quota_exhausted"))
            #expect(openAI.status == 429)
            #expect((try jsonObject(openAI.body)["error"] as? [String: Any])?["code"] as? String == "insufficient_quota")
        }
    }

    @Test(arguments: [("overloaded", 529, "overloaded_error"), ("server_error", 500, "api_error"), ("status; code=413", 413, "request_too_large")])
    func statusFaultsUseAnthropicsErrorFormat(fault: String, status: Int, type: String) async throws {
        try await withSimulator { simulator in
            let response = try await anthropic(simulator, fault: fault)
            #expect(response.status == status)
            #expect((try jsonObject(response.body)["error"] as? [String: Any])?["type"] as? String == type)
        }
    }

    @Test(arguments: [400, 401, 403, 404, 413, 422])
    func statusFaultsUseOpenAIsErrorFormat(code: Int) async throws {
        try await withSimulator { simulator in
            let response = try await simulator.send(
                "/v1/chat/completions", json: OpenAIChatTests.body(stream: false),
                headers: SimulatorHarness.headers(SimulatorHarness.openAIHeaders, fault: "status; code=\(code)"))
            #expect(response.status == code)
            let error = try #require(try jsonObject(response.body)["error"] as? [String: Any])
            #expect(error["message"] is String)
            #expect(error["type"] is String)
        }
    }

    @Test func badGatewayIsAnHTMLPage() async throws {
        try await withSimulator { simulator in
            let response = try await anthropic(simulator, fault: "bad_gateway")
            #expect(response.status == 502)
            #expect(response.header("content-type") == "text/html")
            #expect(String(decoding: response.body, as: UTF8.self).contains("<h1>502 Bad Gateway</h1>"))
        }
    }

    @Test func noRetrySaysSo() async throws {
        try await withSimulator { simulator in
            let response = try await anthropic(simulator, fault: "no_retry")
            #expect(response.status == 500)
            #expect(response.header("x-should-retry") == "false")
        }
    }

    @Test func hangNeverAnswers() async throws {
        try await withSimulator { simulator in
            let error = await #expect(throws: HTTPClientError.self) {
                try await anthropic(simulator, fault: "hang", timeout: .milliseconds(400))
            }
            #expect(error?.kind == .timeout)
            // The simulator is still serving others.
            let status4 = try await anthropic(simulator, fault: nil).status
            #expect(status4 == 200)
        }
    }

    @Test func slowFirstByteDelaysThenAnswers() async throws {
        try await withSimulator { simulator in
            let error = await #expect(throws: HTTPClientError.self) {
                try await anthropic(simulator, fault: "slow_first_byte; delay_ms=3000", timeout: .milliseconds(300))
            }
            #expect(error?.kind == .timeout)
            let status5 = try await anthropic(simulator, fault: "slow_first_byte; delay_ms=50").status
            #expect(status5 == 200)
        }
    }

    @Test func cutDropsTheConnectionMidStream() async throws {
        try await withSimulator { simulator in
            let (response, body, error) = try await simulator.stream(
                "/v1/messages", json: Self.anthropicStream,
                headers: SimulatorHarness.headers(SimulatorHarness.anthropicHeaders, fault: "cut; after_events=4"))
            #expect(response.status == 200)
            let failure = try #require(error)
            #expect([18, 56].contains(failure.code ?? 0))
            #expect(SSEParser.parse(body).events.count == 4)
        }
    }

    @Test func cutNonStreamingBodyIsShorterThanItsLength() async throws {
        try await withSimulator { simulator in
            let error = await #expect(throws: HTTPClientError.self) { try await anthropic(simulator, fault: "cut") }
            #expect([18, 56].contains(error?.code ?? 0))
        }
    }

    @Test func noFinalEventEndsCleanlyWithoutTheMarker() async throws {
        try await withSimulator { simulator in
            let (_, body, error) = try await simulator.stream(
                "/v1/messages", json: Self.anthropicStream,
                headers: SimulatorHarness.headers(SimulatorHarness.anthropicHeaders, fault: "no_final_event"))
            #expect(error == nil)
            let names = SSEParser.parse(body).events.compactMap(\.name)
            #expect(names.last == "message_delta")
            #expect(!names.contains("message_stop"))

            let (_, openAIBody, openAIError) = try await simulator.stream(
                "/v1/chat/completions", json: Self.openAIStream,
                headers: SimulatorHarness.headers(SimulatorHarness.openAIHeaders, fault: "no_final_event"))
            #expect(openAIError == nil)
            let events = SSEParser.parse(openAIBody).events
            #expect(!events.isEmpty)
            #expect(!events.contains { $0.data == "[DONE]" })
        }
    }

    @Test func streamErrorArrivesInBandAfterA200() async throws {
        try await withSimulator { simulator in
            let (response, body, error) = try await simulator.stream(
                "/v1/messages", json: Self.anthropicStream,
                headers: SimulatorHarness.headers(SimulatorHarness.anthropicHeaders, fault: "stream_error; after_events=5"))
            #expect(response.status == 200)
            #expect(error == nil)
            let events = SSEParser.parse(body).events
            #expect(events.count == 6)
            #expect(events.last?.name == "error")
            let data = try jsonObject(Array(try #require(events.last).data.utf8))
            #expect((data["error"] as? [String: Any])?["type"] as? String == "overloaded_error")

            let (_, openAIBody, _) = try await simulator.stream(
                "/v1/chat/completions", json: Self.openAIStream,
                headers: SimulatorHarness.headers(SimulatorHarness.openAIHeaders, fault: "stream_error"))
            let last = try #require(SSEParser.parse(openAIBody).events.last)
            #expect((try jsonObject(Array(last.data.utf8))["error"] as? [String: Any])?["type"] as? String == "server_error")
        }
    }

    @Test func stallHoldsTheConnectionSilent() async throws {
        try await withSimulator { simulator in
            let (response, body, error) = try await simulator.stream(
                "/v1/messages", json: Self.anthropicStream, headers: SimulatorHarness.headers(SimulatorHarness.anthropicHeaders, fault: "stall"),
                timeout: .seconds(10))
            #expect(response.status == 200)
            #expect(error?.kind == .timeout)
            // Two events went out before the silence (a client may not hand over the last chunk once it times out).
            let names = SSEParser.parse(body).events.compactMap(\.name)
            #expect(!names.isEmpty && names.count <= 2)
            #expect(!names.contains("content_block_delta"))
        }
    }

    @Test func keepaliveSendsPingsAndCommentsBeforeTheStream() async throws {
        try await withSimulator { simulator in
            let (_, body, _) = try await simulator.stream(
                "/v1/messages", json: Self.anthropicStream,
                headers: SimulatorHarness.headers(SimulatorHarness.anthropicHeaders, fault: "keepalive; count=3; interval_ms=10"))
            let names = SSEParser.parse(body).events.compactMap(\.name)
            #expect(Array(names.prefix(4)) == ["ping", "ping", "ping", "message_start"])
            #expect(names.last == "message_stop")

            let (_, openAIBody, _) = try await simulator.stream(
                "/v1/chat/completions", json: Self.openAIStream,
                headers: SimulatorHarness.headers(SimulatorHarness.openAIHeaders, fault: "keepalive; count=2; interval_ms=10"))
            #expect(String(decoding: openAIBody, as: UTF8.self).hasPrefix(": keep-alive\n\n: keep-alive\n\ndata: {"))
            #expect(SSEParser.parse(openAIBody).events.last?.data == "[DONE]")
        }
    }

    @Test func trickleAndCRLFDeliverTheSameEvents() async throws {
        try await withSimulator { simulator in
            let (_, normal, _) = try await simulator.stream("/v1/messages", json: Self.anthropicStream, headers: SimulatorHarness.anthropicHeaders)
            for fault in ["trickle; bytes=5; interval_ms=1", "crlf"] {
                let (_, body, error) = try await simulator.stream(
                    "/v1/messages", json: Self.anthropicStream, headers: SimulatorHarness.headers(SimulatorHarness.anthropicHeaders, fault: fault))
                #expect(error == nil)
                // Ids differ per request; the event names and the text do not.
                #expect(SSEParser.parse(body).events.map(\.name) == SSEParser.parse(normal).events.map(\.name))
                #expect(SSEParser.parse(body).events.suffix(4) == SSEParser.parse(normal).events.suffix(4))
                if fault == "crlf" { #expect(String(decoding: body, as: UTF8.self).contains("\r\n\r\n")) }
            }
        }
    }

    @Test func malformedBreaksTheJSON() async throws {
        try await withSimulator { simulator in
            let response = try await anthropic(simulator, fault: "malformed")
            #expect(response.status == 200)
            #expect(throws: (any Error).self) { try JSONSerialization.jsonObject(with: Data(response.body)) }

            let (_, body, error) = try await simulator.stream(
                "/v1/chat/completions", json: Self.openAIStream, headers: SimulatorHarness.headers(SimulatorHarness.openAIHeaders, fault: "malformed")
            )
            #expect(error == nil)
            let events = SSEParser.parse(body).events
            let invalid = events.filter { event in
                event.data != "[DONE]" && (try? JSONSerialization.jsonObject(with: Data(event.data.utf8))) == nil
            }
            #expect(invalid.count == 1)
        }
    }

    @Test func refusalAndFencedJSON() async throws {
        try await withSimulator { simulator in
            let refused = try jsonObject(
                try await simulator.send(
                    "/v1/chat/completions", json: OpenAIChatTests.body(stream: false),
                    headers: SimulatorHarness.headers(SimulatorHarness.openAIHeaders, fault: "refusal")
                ).body)
            let message = try #require((refused["choices"] as? [[String: Any]])?.first?["message"] as? [String: Any])
            #expect(message["content"] is NSNull)
            #expect(message["refusal"] is String)

            let fenced = try jsonObject(
                try await simulator.send(
                    "/v1/chat/completions", json: OpenAIChatTests.body(stream: false, extra: #","response_format":{"type":"json_object"}"#),
                    headers: SimulatorHarness.headers(SimulatorHarness.openAIHeaders, fault: "fenced_json")
                ).body)
            let content = try #require(((fenced["choices"] as? [[String: Any]])?.first?["message"] as? [String: Any])?["content"] as? String)
            #expect(content.hasPrefix("```json\n"))
            #expect(content.hasSuffix("\n```"))
        }
    }

    @Test func unknownFaultIsABadRequest() async throws {
        try await withSimulator { simulator in
            let response = try await anthropic(simulator, fault: "explode")
            #expect(response.status == 400)
            #expect(String(decoding: response.body, as: UTF8.self).contains("unknown fault mode"))
        }
    }
}
