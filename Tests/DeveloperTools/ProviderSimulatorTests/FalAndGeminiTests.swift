import CurlClient
import Foundation
import RenderingFixtures
import Testing

@Suite("fal.ai queue and Gemini")
struct FalAndGeminiTests {
    static let falHeaders: CurlClient.HTTPHeaders = ["Authorization": "Key fal-test"]

    @Test func falSubmitPollResultAndImage() async throws {
        try await withSimulator { simulator in
            let submit = try await simulator.send(
                "/fal-ai/flux/dev", json: #"{"prompt":"A red fox in snow","image_size":{"width":320,"height":240},"num_images":2}"#,
                headers: Self.falHeaders)
            #expect(submit.status == 200)
            let submitted = try jsonObject(submit.body)
            let id = try #require(submitted["request_id"] as? String)
            #expect(submitted["status"] as? String == "IN_QUEUE")
            let statusURL = try #require(submitted["status_url"] as? String)
            #expect(statusURL == simulator.url("/fal-ai/flux/requests/\(id)/status"))
            #expect(submitted["response_url"] as? String == simulator.url("/fal-ai/flux/requests/\(id)"))
            #expect(submitted["cancel_url"] as? String == simulator.url("/fal-ai/flux/requests/\(id)/cancel"))

            var states: [String] = []
            var positions: [Int] = []
            for _ in 0..<10 {
                let poll = try await simulator.client.execute(CurlClient.HTTPRequest(url: statusURL + "?logs=1", headers: Self.falHeaders))
                let status = try jsonObject(poll.body)
                let state = try #require(status["status"] as? String)
                states.append(state)
                if let position = status["queue_position"] as? Int { positions.append(position) }
                #expect(poll.status == (state == "COMPLETED" ? 200 : 202))
                if state == "IN_PROGRESS" { #expect((status["logs"] as? [Any])?.isEmpty == false) }
                if state == "COMPLETED" { break }
            }
            #expect(states.first == "IN_QUEUE")
            #expect(states.contains("IN_PROGRESS"))
            #expect(states.last == "COMPLETED")
            #expect(positions == positions.sorted(by: >))

            let result = try jsonObject(
                try await simulator.send(
                    try #require(submitted["response_url"] as? String).replacingOccurrences(of: simulator.baseURL, with: ""), method: "GET",
                    headers: Self.falHeaders
                ).body)
            let images = try #require(result["images"] as? [[String: Any]])
            #expect(images.count == 2)
            #expect(result["has_nsfw_concepts"] as? [Bool] == [false, false])
            #expect(result["prompt"] as? String == "A red fox in snow")
            let url = try #require(images[0]["url"] as? String)
            let image = try await simulator.client.execute(CurlClient.HTTPRequest(url: url))
            let parsed = try #require(ParsedPNG(image.body))
            #expect(parsed.width == 320 && parsed.height == 240 && parsed.crcsValid)
            #expect(images[0]["width"] as? Int == 320)

            let cancel = try await simulator.send("/fal-ai/flux/requests/\(id)/cancel", method: "PUT", headers: Self.falHeaders)
            #expect(cancel.status == 400)
            #expect(try jsonObject(cancel.body)["status"] as? String == "ALREADY_COMPLETED")
        }
    }

    @Test func falCancelAndErrors() async throws {
        try await withSimulator { simulator in
            let submitted = try jsonObject(
                try await simulator.send(
                    "/fal-ai/flux-pro/kontext", json: #"{"prompt":"p","image_url":"data:image/png;base64,AA=="}"#, headers: Self.falHeaders
                ).body)
            let id = try #require(submitted["request_id"] as? String)
            let cancel = try await simulator.send("/fal-ai/flux-pro/requests/\(id)/cancel", method: "PUT", headers: Self.falHeaders)
            #expect(cancel.status == 202)
            #expect(try jsonObject(cancel.body)["status"] as? String == "CANCELLATION_REQUESTED")

            let overloaded = try await simulator.send(
                "/fal-ai/flux/dev", json: #"{"prompt":"p"}"#, headers: SimulatorHarness.headers(Self.falHeaders, fault: "overloaded"))
            #expect(overloaded.status == 503)
            #expect(overloaded.header("x-fal-retryable") == "true")
            #expect(overloaded.header("x-fal-error-type") == "runner_scheduling_failure")
            #expect(try jsonObject(overloaded.body)["error_type"] as? String == "runner_scheduling_failure")

            let invalid = try await simulator.send("/fal-ai/flux/dev", json: #"{"image_size":"square"}"#, headers: Self.falHeaders)
            #expect(invalid.status == 422)
            #expect(invalid.header("x-fal-retryable") == "false")
            #expect(try jsonObject(invalid.body)["detail"] is [Any])

            let unauthorized = try await simulator.send("/fal-ai/flux/dev", json: #"{"prompt":"p"}"#)
            #expect(unauthorized.status == 401)
        }
    }

    static let gemini =
        #"{"systemInstruction":{"parts":[{"text":"You are the DM."}]},"contents":[{"role":"user","parts":[{"text":"Describe the cave"},"#
        + #"{"inlineData":{"mimeType":"image/png","data":"iVBORw0KGgo="}}]}],"generationConfig":{"maxOutputTokens":1024}}"#

    @Test func geminiStreamsSSEMatchingTheWholeAnswer() async throws {
        try await withSimulator { simulator in
            let whole = try jsonObject(
                try await simulator.send("/v1beta/models/gemini-2.0-flash:generateContent", json: Self.gemini, headers: ["x-goog-api-key": "g"]).body)
            let candidate = try #require((whole["candidates"] as? [[String: Any]])?.first)
            #expect(candidate["finishReason"] as? String == "STOP")
            let text = try #require(((candidate["content"] as? [String: Any])?["parts"] as? [[String: Any]])?.first?["text"] as? String)
            let usage = try #require(whole["usageMetadata"] as? [String: Any])
            // "You are the DM." and "Describe the cave": 4 + 3 words.
            #expect(usage["promptTokenCount"] as? Int == 7)

            let (response, body, error) = try await simulator.stream(
                "/v1beta/models/gemini-2.0-flash:streamGenerateContent?alt=sse&key=g", json: Self.gemini)
            #expect(error == nil)
            #expect(response.header("content-type") == "text/event-stream")
            let events = SSEParser.parse(body).events
            var streamed = ""
            for event in events {
                let chunk = try jsonObject(Array(event.data.utf8))
                let part = (((chunk["candidates"] as? [[String: Any]])?.first?["content"] as? [String: Any])?["parts"] as? [[String: Any]])?.first
                streamed += part?["text"] as? String ?? ""
            }
            #expect(streamed == text)
            let last = try jsonObject(Array(try #require(events.last).data.utf8))
            #expect((last["candidates"] as? [[String: Any]])?.first?["finishReason"] as? String == "STOP")
            #expect((last["usageMetadata"] as? [String: Any])?["candidatesTokenCount"] as? Int == usage["candidatesTokenCount"] as? Int)
        }
    }

    @Test func geminiSchemaAndErrors() async throws {
        let schemaRequest =
            #"{"contents":[{"parts":[{"text":"Scene"}]}],"generationConfig":{"responseMimeType":"application/json","#
            + #""responseSchema":{"type":"OBJECT","properties":{"narration":{"type":"STRING"},"danger":{"type":"INTEGER","minimum":1,"maximum":3}}}}}"#
        try await withSimulator { simulator in
            let response = try jsonObject(
                try await simulator.send("/v1beta/models/gemini-2.5-pro:generateContent", json: schemaRequest, headers: ["x-goog-api-key": "g"]).body)
            let text = try #require(
                (((response["candidates"] as? [[String: Any]])?.first?["content"] as? [String: Any])?["parts"] as? [[String: Any]])?.first?["text"]
                    as? String)
            let scene = try jsonObject(Array(text.utf8))
            #expect(scene["narration"] is String)
            #expect((1...3).contains(scene["danger"] as? Int ?? 0))

            let limited = try await simulator.send(
                "/v1beta/models/gemini-2.5-pro:generateContent", json: schemaRequest,
                headers: SimulatorHarness.headers(["x-goog-api-key": "g"], fault: "rate_limit; retry_after=22"))
            #expect(limited.status == 429)
            let error = try #require(try jsonObject(limited.body)["error"] as? [String: Any])
            #expect(error["status"] as? String == "RESOURCE_EXHAUSTED")
            let details = try #require(error["details"] as? [[String: Any]])
            #expect(details.contains { $0["retryDelay"] as? String == "22s" })

            let overloaded = try await simulator.send(
                "/v1beta/models/gemini-2.5-pro:generateContent", json: schemaRequest,
                headers: SimulatorHarness.headers(["x-goog-api-key": "g"], fault: "overloaded"))
            #expect(overloaded.status == 503)
            #expect((try jsonObject(overloaded.body)["error"] as? [String: Any])?["status"] as? String == "UNAVAILABLE")

            let noKey = try await simulator.send("/v1beta/models/gemini-2.5-pro:generateContent", json: schemaRequest)
            #expect(noKey.status == 403)
        }
    }

    @Test func scenarioInstalledAtRuntimeFaultsMatchingRequestsAndStatsCount() async throws {
        try await withSimulator { simulator in
            let scenario = #"{"rules":[{"route":"openai.chat","fault":"overloaded","every":2}]}"#
            #expect(try await simulator.send("/_simulator/scenario", method: "PUT", json: scenario).status == 200)
            var statuses: [Int] = []
            for _ in 0..<4 {
                statuses.append(
                    try await simulator.send(
                        "/v1/chat/completions", json: OpenAIChatTests.body(stream: false), headers: SimulatorHarness.openAIHeaders
                    ).status)
            }
            #expect(statuses == [200, 503, 200, 503])
            let anthropic = try await simulator.send(
                "/v1/messages", json: AnthropicMessagesTests.body(stream: false), headers: SimulatorHarness.anthropicHeaders)
            #expect(anthropic.status == 200)
            let stats = try jsonObject(try await simulator.send("/_simulator/stats", method: "GET").body)
            let requests = try #require(stats["requests"] as? [String: Int])
            #expect(requests["openai.chat"] == 4)
            #expect(requests["anthropic.messages"] == 1)
            #expect(try await simulator.send("/_simulator/scenario", method: "PUT", json: #"{"rules":[{"fault":"nope"}]}"#).status == 400)
            #expect(try await simulator.send("/healthz", method: "GET").status == 200)
        }
    }
}
