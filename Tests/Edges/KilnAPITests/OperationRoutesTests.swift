import HTTPTypes
import KilnAPI
import KilnCore
import KilnJSON
import KilnQueue
import Testing

/// Health, readiness, metrics and the OpenAPI document, which need no credentials.
@Suite struct OperationRoutesTests {
    @Test func aNodeIsAliveAndReadyWhenRedisAnswers() async throws {
        var test = TestAPI()
        test.configuration.version = "1.2.3"
        test.configuration.commit = "0123456789ab"
        let api = try test.driver()
        #expect(
            JSONValue.parse(try await api.send(.get, "/healthz").body)
                == .object(["status": "ok", "version": "1.2.3", "commit": "0123456789ab"]))
        let ready = try await api.send(.get, "/readyz")
        #expect(ready.status == .ok)
        #expect(JSONValue.parse(ready.body) == .object(["status": "ready"]))
    }

    @Test func aNodeIsNotReadyWhileRedisIsOut() async throws {
        var test = TestAPI()
        test.health.isDown = true
        let answer = try await test.driver().send(.get, "/readyz")
        #expect(answer.status == .serviceUnavailable)
        #expect(answer.headers[.retryAfter] == "2")
        #expect(JSONValue.parse(answer.body)?["code"]?.stringValue == "queue_unavailable")
    }

    @Test func theMetricsShowTheQueuesFigures() async throws {
        var test = TestAPI()
        test.health.figures = QueueStats(
            ready: [.init(tenant: "acme", jobClass: .io, priority: .high, count: 7, oldestWaitMilliseconds: 1500)], inFlight: 2, delayed: 1,
            dead: 0, unrecorded: 3, paused: [.tenant(try #require(TenantID(validating: "globex"))), .jobClass(.cpu)])
        let answer = try await test.driver().send(.get, "/metrics")
        #expect(answer.headers[.contentType] == "text/plain; version=0.0.4")
        let lines = Set(answer.body.split(separator: "\n").map(String.init))
        #expect(lines.contains(#"kiln_queue_ready{tenant="acme",class="io",priority="high"} 7"#))
        #expect(lines.contains(#"kiln_queue_oldest_wait_seconds{tenant="acme",class="io",priority="high"} 1.5"#))
        #expect(lines.contains("kiln_queue_in_flight 2"))
        #expect(lines.contains("kiln_queue_unrecorded 3"))
        #expect(lines.contains(#"kiln_queue_paused{tenant="globex"} 1"#))
        #expect(lines.contains(#"kiln_queue_paused{class="cpu"} 1"#))
    }

    @Test func theOpenAPIDocumentIsServed() async throws {
        let answer = try await TestAPI().driver().send(.get, "/openapi.json")
        #expect(answer.headers[.contentType] == "application/json")
        #expect(JSONValue.parse(answer.body)?["openapi"]?.stringValue == "3.1.0")
    }

    @Test func anAddressNoRouteServesIsAProblem() async throws {
        let answer = try await TestAPI().driver().send(.get, "/v2/nothing")
        #expect(answer.status == .notFound)
        #expect(answer.headers[.contentType] == "application/problem+json")
        #expect(JSONValue.parse(answer.body)?["code"]?.stringValue == "not_found")
    }
}
