import Foundation
import HTTPTypes
import KilnAPI
import KilnCore
import KilnJSON
import KilnPolicy
import KilnQueue
import KilnStore
import Testing

/// `/v1/jobs` through the API's router over the in-memory fakes: what an app gets for a submission, a replay, a bad
/// request, a read, a cancel and an outage, and what a metered submission is charged and told.
@Suite struct JobRoutesTests {
    static let echo = #"{"kind":"diag.echo","input":{"message":"hi"}}"#

    @Test func aSubmissionIsQueuedAndAnsweredWithTheJobAndItsAddress() async throws {
        let test = TestAPI()
        let api = try test.driver()
        let answer = try await api.send(.post, "/v1/jobs", headers: TestAPI.headers(), body: Self.echo)
        #expect(answer.status == .accepted)
        let submission = try #require(test.queue.submissions.first)
        let id = try #require(test.queue.ids.first)
        #expect(answer.headers[.location] == "/v1/jobs/\(id)")
        #expect(submission.kind == "diag.echo")
        #expect(submission.identity.rawValue == "user-1")
        #expect(submission.input == #"{"message":"hi"}"#)
        #expect(submission.charge == nil)
        let job = try #require(JSONValue.parse(answer.body))
        #expect(job["id"]?.stringValue == id.rawValue)
        #expect(job["status"]?.stringValue == "queued")
        #expect(job["result"] == .null, "a member the job does not have yet is null, not absent")
        let read = try await api.send(.get, "/v1/jobs/\(id)", headers: TestAPI.headers())
        #expect(read.status == .ok)
        #expect(JSONValue.parse(read.body)?["kind"]?.stringValue == "diag.echo")
    }

    @Test func theSameIdempotencyKeyAnswersWithTheSameJobOrAConflict() async throws {
        let test = TestAPI()
        let api = try test.driver()
        var headers = TestAPI.headers()
        headers[.idempotencyKey] = "order-7"
        let first = try await api.send(.post, "/v1/jobs", headers: headers, body: Self.echo)
        let again = try await api.send(.post, "/v1/jobs", headers: headers, body: Self.echo)
        #expect(again.status == .accepted)
        #expect(again.headers[.location] == first.headers[.location])
        #expect(test.queue.submissions.count == 1)
        let other = try await api.send(.post, "/v1/jobs", headers: headers, body: #"{"kind":"diag.echo","input":{"message":"bye"}}"#)
        #expect(other.status == .unprocessableContent)
        let problem = try #require(JSONValue.parse(other.body))
        #expect(problem["code"]?.stringValue == "idempotency_conflict")
        #expect(problem["job_id"]?.stringValue == test.queue.ids.first?.rawValue)
    }

    @Test(arguments: [
        (#"{"kind":"diag.sleep","input":{"seconds":"soon"}}"#, 400, "invalid_input"),
        (#"{"kind":"nope.nothing","input":{}}"#, 400, "unknown_kind"),
        (#"{"kind":"diag.echo"}"#, 400, "invalid_input"),
        (#"{"kind":"diag.echo","input":{},"urgent":true}"#, 400, "invalid_input"),
        ("not json", 400, "malformed_json"),
    ])
    func aBadSubmissionIsRefusedWithItsReasonAndQueuesNothing(body: String, status: Int, code: String) async throws {
        let test = TestAPI()
        let answer = try await test.driver().send(.post, "/v1/jobs", headers: TestAPI.headers(), body: body)
        #expect(answer.status.code == status)
        #expect(answer.headers[.contentType] == "application/problem+json")
        #expect(JSONValue.parse(answer.body)?["code"]?.stringValue == code)
        #expect(test.queue.submissions.isEmpty)
    }

    @Test func ofSeveralUnknownMembersTheFirstInSortedOrderIsNamed() async throws {
        let test = TestAPI()
        let body = #"{"zeta":1,"kind":"diag.echo","input":{"message":"hi"},"beta":true,"alpha":2}"#
        let answer = try await test.driver().send(.post, "/v1/jobs", headers: TestAPI.headers(), body: body)
        #expect(answer.status.code == 400)
        #expect(JSONValue.parse(answer.body)?["field"]?.stringValue == "alpha")
        #expect(JSONValue.parse(answer.body)?["detail"]?.stringValue == "alpha is not a known field")
        #expect(test.queue.submissions.isEmpty)
    }

    @Test(arguments: [
        (HTTPRequest.Method.put, "/v1/jobs", "POST"),
        (.delete, "/v1/jobs/\(JobID())", "GET"),
        (.get, "/v1/jobs/\(JobID())/cancel", "POST"),
        (.post, "/v1/partners", "DELETE, GET"),
        (.post, "/healthz", "GET"),
        (.put, "/s/some-slug", "GET, HEAD"),
    ])
    func aMethodThePathDoesNotTakeIsNotAllowedAndTheAnswerSaysWhichAre(method: HTTPRequest.Method, path: String, allow: String) async throws {
        let test = TestAPI()
        let answer = try await test.driver().send(method, path, headers: TestAPI.headers(), body: Self.echo)
        #expect(answer.status == .methodNotAllowed)
        #expect(answer.headers[.allow] == allow)
        #expect(answer.headers[.contentType] == "application/problem+json")
        #expect(JSONValue.parse(answer.body)?["code"]?.stringValue == "method_not_allowed")
        #expect(test.queue.submissions.isEmpty)
    }

    @Test func aPathNoRouteHasIsNotFound() async throws {
        let answer = try await TestAPI().driver().send(.get, "/v1/nothing-here", headers: TestAPI.headers())
        #expect(answer.status == .notFound)
        #expect(answer.headers[.allow] == nil)
        #expect(JSONValue.parse(answer.body)?["code"]?.stringValue == "not_found")
    }

    @Test func aBodyOverTheLimitIsRefusedBeforeItIsRead() async throws {
        var test = TestAPI()
        test.configuration.maxJobBodyBytes = 64
        let body = #"{"kind":"diag.echo","input":{"message":"\#(String(repeating: "a", count: 100))"}}"#
        let answer = try await test.driver().send(.post, "/v1/jobs", headers: TestAPI.headers(), body: body)
        #expect(answer.status == .contentTooLarge)
        #expect(JSONValue.parse(answer.body)?["code"]?.stringValue == "body_too_large")
    }

    @Test(arguments: [("Bearer someone_elses", "invalid_api_key"), ("Basic a2lsbg==", "missing_api_key")])
    func aKeyThatIsNotATenantsIsRefusedBeforeAnythingElse(authorization: String, code: String) async throws {
        var headers = TestAPI.headers()
        headers[.authorization] = authorization
        let answer = try await TestAPI().driver().send(.post, "/v1/jobs", headers: headers, body: "{}")
        #expect(answer.status == .unauthorized)
        #expect(JSONValue.parse(answer.body)?["code"]?.stringValue == code)
    }

    @Test func anotherIdentitysJobIsNotFound() async throws {
        let api = try TestAPI().driver()
        let created = try await api.send(.post, "/v1/jobs", headers: TestAPI.headers(), body: Self.echo)
        let read = try await api.send(.get, try #require(created.headers[.location]), headers: TestAPI.headers("user-2"))
        #expect(read.status == .notFound)
        #expect(JSONValue.parse(read.body)?["code"]?.stringValue == "job_not_found")
    }

    @Test func aFinishedJobIsReadFromItsRecordWithItsArtifacts() async throws {
        var test = TestAPI()
        let id = JobID()
        test.records.records = [
            JobRecord(
                id: id, tenant: TestAPI.tenant, identity: try #require(Identity(validating: "user-1")), kind: "diag.echo", priority: .normal,
                state: .succeeded, attempt: 1, maxAttempts: 3, input: "{}", result: #"{"message":"hi","started_at_us":1790000000123456}"#,
                createdAt: TestAPI.now,
                startedAt: TestAPI.now, finishedAt: TestAPI.now.addingTimeInterval(1))
        ]
        test.records.artifacts = [
            Artifact(
                job: id, tenant: TestAPI.tenant, name: "echo.txt", attempt: 1, contentType: "text/plain", size: 2, sha256: Digest.sha256Hex("hi"),
                path: "tenants/acme/jobs/\(id)/1/echo.txt", createdAt: TestAPI.now)
        ]
        let api = try test.driver()
        let read = try await api.send(.get, "/v1/jobs/\(id)", headers: TestAPI.headers())
        let job = try #require(JSONValue.parse(read.body))
        #expect(job["status"]?.stringValue == "succeeded")
        #expect(job["result"]?["message"]?.stringValue == "hi")
        // An integer, as the event stream writes it, not 1.790000000123456e+15.
        #expect(read.body.contains(#""started_at_us":1790000000123456"#), "\(read.body)")
        #expect(job["artifacts"]?.arrayValue?.first?["url"]?.stringValue == "/v1/jobs/\(id)/artifacts/echo.txt")
        let missing = try await api.send(.get, "/v1/jobs/\(id)/artifacts/other.txt", headers: TestAPI.headers())
        #expect(missing.status == .notFound)
        #expect(JSONValue.parse(missing.body)?["code"]?.stringValue == "artifact_not_found")
        // A finished job cannot be cancelled.
        let cancel = try await api.send(.post, "/v1/jobs/\(id)/cancel", headers: TestAPI.headers())
        #expect(cancel.status == .conflict)
        #expect(JSONValue.parse(cancel.body)?["code"]?.stringValue == "job_finished")
    }

    @Test(arguments: ["Kiln-User-Token", "Kiln-App-Store-Transaction", "Kiln-App-Transaction"])
    func aSecondCredentialBesideKilnIdentityIsRefusedOnATenantWithoutAPolicy(header: String) async throws {
        let test = TestAPI()
        var headers = TestAPI.headers()
        headers[try #require(HTTPField.Name(header))] = "eyJ.e30.x"
        let answer = try await test.driver().send(.post, "/v1/jobs", headers: headers, body: Self.echo)
        #expect(answer.status == .badRequest)
        #expect(JSONValue.parse(answer.body)?["code"]?.stringValue == "ambiguous_identity")
        #expect(test.queue.submissions.isEmpty)
    }

    @Test func aQueuedJobIsCancelledOnce() async throws {
        let api = try TestAPI().driver()
        let created = try await api.send(.post, "/v1/jobs", headers: TestAPI.headers(), body: Self.echo)
        let location = try #require(created.headers[.location])
        let cancel = try await api.send(.post, location + "/cancel", headers: TestAPI.headers())
        #expect(cancel.status == .accepted)
        #expect(JSONValue.parse(cancel.body)?["id"] == JSONValue.parse(created.body)?["id"])
        let again = try await api.send(.post, location + "/cancel", headers: TestAPI.headers())
        #expect(again.status == .conflict)
        #expect(JSONValue.parse(again.body)?["code"]?.stringValue == "job_finished")
    }

    @Test(arguments: ["not-a-uuid", "00000000-0000-4000-8000-000000000000"])
    func aJobThatIsNotThereIsNotFound(id: String) async throws {
        let answer = try await TestAPI().driver().send(.get, "/v1/jobs/\(id)", headers: TestAPI.headers())
        #expect(answer.status == .notFound)
        #expect(JSONValue.parse(answer.body)?["code"]?.stringValue == "job_not_found")
    }

    @Test func aQueueThatDoesNotAnswerIsA503WithRetryAfter() async throws {
        var test = TestAPI()
        test.queue = MemorySubmissionQueue(isDown: true)
        let answer = try await test.driver().send(.post, "/v1/jobs", headers: TestAPI.headers(), body: Self.echo)
        #expect(answer.status == .serviceUnavailable)
        #expect(answer.headers[.retryAfter] != nil)
        #expect(JSONValue.parse(answer.body)?["code"]?.stringValue == "queue_unavailable")
    }

    // MARK: Metered submissions

    @Test func aMeteredSubmissionIsChargedAtTheCallersTierAndToldWhatRemains() async throws {
        let test = try TestAPI.metered()
        let answer = try await test.driver().send(.post, "/v1/jobs", headers: TestAPI.headers(), body: Self.echo)
        #expect(answer.status == .accepted)
        let charge = try #require(test.queue.submissions.first?.charge)
        #expect(charge.tier.name == "free")
        #expect(charge.quotaClass.rawValue == "text")
        #expect(charge.cost == 1)
        #expect(charge.limit == 2)
        #expect(charge.subject == "user-1")
        #expect(charge.day.label == "20260921")
        #expect(answer.headers[.init("Kiln-Quota-Class")!] == "text")
        #expect(answer.headers[.init("Kiln-Quota-Limit")!] == "2")
        #expect(answer.headers[.init("Kiln-Quota-Remaining")!] == "1")
        #expect(answer.headers[.init("Kiln-Quota-Reset")!] == "2026-09-22T00:00:00Z")
    }

    @Test func pastTheDailyLimitASubmissionIsA429ThatExplainsItself() async throws {
        let test = try TestAPI.metered()
        let api = try test.driver()
        for _ in 0..<2 { #expect(try await api.send(.post, "/v1/jobs", headers: TestAPI.headers(), body: Self.echo).status == .accepted) }
        let denied = try await api.send(.post, "/v1/jobs", headers: TestAPI.headers(), body: Self.echo)
        #expect(denied.status == .tooManyRequests)
        let problem = try #require(JSONValue.parse(denied.body))
        #expect(problem["code"]?.stringValue == "daily_quota_exhausted")
        #expect(problem["reason"]?.stringValue == "daily_quota_exhausted")
        #expect(problem["limit"] == .number(2))
        #expect(problem["remaining"] == .number(0))
        #expect(problem["tier"]?.stringValue == "free")
        #expect(problem["upgrade_available"] == .bool(true))
        #expect(problem["reset_at"]?.stringValue == "2026-09-22T00:00:00Z")
        // The day resets at midnight UTC: that long to wait, in whole seconds.
        let wait = Int(Date(timeIntervalSince1970: 1_790_035_200).timeIntervalSince(TestAPI.now))
        #expect(denied.headers[.retryAfter] == String(wait))
        #expect(problem["retry_after_s"] == .number(Double(wait)))
        #expect(test.queue.submissions.count == 2)
        // Another identity has its own pool; the server's `pro` tier has a larger one.
        #expect(try await api.send(.post, "/v1/jobs", headers: TestAPI.headers("user-2"), body: Self.echo).status == .accepted)
        let pro = try await api.send(.post, "/v1/jobs", headers: TestAPI.headers(tier: "pro"), body: Self.echo)
        #expect(pro.status == .accepted)
        #expect(pro.headers[.init("Kiln-Quota-Limit")!] == "1000")
    }

    @Test func aTierTheTenantDoesNotHaveIsRefusedWhereItIsRead() async throws {
        let test = try TestAPI.metered()
        let answer = try await test.driver().send(.post, "/v1/jobs", headers: TestAPI.headers(tier: "platinum"), body: Self.echo)
        #expect(answer.status == .badRequest)
        #expect(JSONValue.parse(answer.body)?["code"]?.stringValue == "unknown_tier")
        #expect(test.queue.submissions.isEmpty)
    }

    @Test func aKindTheTierExcludesAsksForAnUpgradeAndChargesNothing() async throws {
        let test = try TestAPI.metered()
        let api = try test.driver()
        let refused = try await api.send(.post, "/v1/jobs", headers: TestAPI.headers(), body: #"{"kind":"diag.sleep","input":{"seconds":1}}"#)
        #expect(refused.status == .forbidden)
        let problem = try #require(JSONValue.parse(refused.body))
        #expect(problem["code"]?.stringValue == "upgrade_required")
        #expect(problem["tier"]?.stringValue == "free")
        #expect(problem["upgrade_available"] == .bool(true))
        #expect(test.queue.submissions.isEmpty)
        let paying = try await api.send(
            .post, "/v1/jobs", headers: TestAPI.headers(tier: "pro"), body: #"{"kind":"diag.sleep","input":{"seconds":1}}"#)
        #expect(paying.status == .accepted)
    }

    @Test func anEntitlementOnRecordSetsTheTierAndIsCached() async throws {
        let test = try TestAPI.metered()
        let identity = try #require(Identity(validating: "user-1"))
        let pro = Entitlement(
            tenant: TestAPI.tenant, identity: "user-1", tier: "pro", expiresAt: nil, source: .revenueCat, productID: nil, eventAt: TestAPI.now)
        _ = try await test.entitlements.apply(pro, eventID: "event-1")
        let answer = try await test.driver().send(.post, "/v1/jobs", headers: TestAPI.headers(), body: Self.echo)
        #expect(answer.headers[.init("Kiln-Quota-Limit")!] == "1000")
        #expect(try await test.standings.cached(tenant: TestAPI.tenant, identity: identity)?.tier == "pro")
    }
}
