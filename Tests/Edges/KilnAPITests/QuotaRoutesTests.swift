import HTTPTypes
import KilnJSON
import Testing

/// `GET /v1/quota` over the in-memory counters the memory queue charges.
@Suite struct QuotaRoutesTests {
    @Test func theQuotaShowsTheTierAndWhatTheDaysSubmissionsReserved() async throws {
        let test = try TestAPI.metered()
        let api = try test.driver()
        _ = try await api.send(.post, "/v1/jobs", headers: TestAPI.headers(), body: JobRoutesTests.echo)
        let answer = try await api.send(.get, "/v1/quota", headers: TestAPI.headers())
        #expect(answer.status == .ok)
        let quota = try #require(JSONValue.parse(answer.body))
        #expect(quota["tier"]?.stringValue == "free")
        #expect(quota["day"]?.stringValue == "20260921")
        #expect(quota["reset_at"]?.stringValue == "2026-09-22T00:00:00Z")
        #expect(quota["unfinished_jobs"]?["count"] == .number(1))
        #expect(quota["unfinished_jobs"]?["cap"] == .number(5))
        #expect(quota["classes"]?["text"]?["limit"] == .number(2))
        #expect(quota["classes"]?["text"]?["pending"] == .number(1))
        #expect(quota["classes"]?["text"]?["remaining"] == .number(1))
        let pro = try #require(JSONValue.parse(try await api.send(.get, "/v1/quota", headers: TestAPI.headers(tier: "pro")).body))
        #expect(pro["tier"]?.stringValue == "pro")
    }

    @Test func aTenantWithoutAPolicyIsNotMetered() async throws {
        let answer = try await TestAPI().driver().send(.get, "/v1/quota", headers: TestAPI.headers())
        #expect(answer.status == .notFound)
        #expect(JSONValue.parse(answer.body)?["code"]?.stringValue == "not_metered")
    }

    @Test func anUnknownTierIsRefused() async throws {
        let answer = try await TestAPI.metered().driver().send(.get, "/v1/quota", headers: TestAPI.headers(tier: "gold"))
        #expect(answer.status == .badRequest)
        #expect(JSONValue.parse(answer.body)?["code"]?.stringValue == "unknown_tier")
    }
}
