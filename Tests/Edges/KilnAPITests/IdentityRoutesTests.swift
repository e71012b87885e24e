import HTTPTypes
import KilnCore
import KilnJSON
import Testing

/// `DELETE /v1/identity` over the in-memory eraser: complete at once, or pending while jobs still run.
@Suite struct IdentityRoutesTests {
    @Test func anIdentityWithRunningJobsIsToldToAskAgainUntilNothingIsLeft() async throws {
        var test = TestAPI()
        let identity = try #require(Identity(validating: "user-1"))
        let running = JobID()
        test.eraser = MemoryEraser([identity: .init(jobs: [JobID(), JobID()], running: [running], uploads: 3, shares: 1)])
        let api = try test.driver()
        let first = try await api.send(.delete, "/v1/identity", headers: TestAPI.headers())
        #expect(first.status == .accepted)
        #expect(first.headers[.retryAfter] == "1")
        let pending = try #require(JSONValue.parse(first.body))
        #expect(pending["status"]?.stringValue == "pending")
        #expect(pending["jobs"] == .number(2))
        #expect(pending["uploads"] == .number(3))
        #expect(pending["shares"] == .number(1))
        #expect(pending["pending_jobs"] == .number(1))
        let second = try await api.send(.delete, "/v1/identity", headers: TestAPI.headers())
        #expect(second.status == .ok)
        let erased = try #require(JSONValue.parse(second.body))
        #expect(erased["status"]?.stringValue == "erased")
        #expect(erased["jobs"] == .number(1))
        #expect(erased["pending_jobs"] == .number(0))
    }

    @Test func anIdentityIsRequired() async throws {
        var headers = TestAPI.headers()
        headers[.kilnIdentity] = nil
        let answer = try await TestAPI().driver().send(.delete, "/v1/identity", headers: headers)
        #expect(answer.status == .badRequest)
        #expect(JSONValue.parse(answer.body)?["code"]?.stringValue == "identity_required")
    }
}
