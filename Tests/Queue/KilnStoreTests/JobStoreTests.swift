import Foundation
import KilnCore
import KilnJSON
import KilnStore
import PostgresClient
import Testing

@Suite struct JobStoreTests {
    private let tenant: TenantID
    private let identity: Identity

    init() throws {
        tenant = try #require(TenantID(validating: "acme"))
        identity = try #require(Identity(validating: "user-1"))
    }

    private func job(_ id: JobID, attempt: Int, state: JobState, result: String? = nil, errorMessage: String? = nil) -> JobRecord {
        JobRecord(
            id: id, tenant: tenant, identity: identity, kind: "diag.echo", priority: .normal, state: state,
            attempt: attempt, maxAttempts: 3, input: #"{"message": "hi"}"#, result: result,
            errorCode: errorMessage == nil ? nil : "diag_failure", errorMessage: errorMessage,
            createdAt: Date(timeIntervalSince1970: 1_795_490_000.25), startedAt: Date(timeIntervalSince1970: 1_795_490_001),
            finishedAt: state.isTerminal ? Date(timeIntervalSince1970: 1_795_490_002) : nil
        )
    }

    @Test func olderAttemptNeverOverwritesNewer() async throws {
        try await TestDatabase.withSchema { pool in
            _ = try await TenantStore(pool: pool).create(id: tenant, name: "Acme")
            let store = JobStore(pool: pool)
            let id = JobID()
            #expect(try await store.record([job(id, attempt: 2, state: .succeeded, result: #"{"ok": 2}"#)]) == 1)
            #expect(try await store.record([job(id, attempt: 1, state: .failed, errorMessage: "late")]) == 0)
            let found = try #require(try await store.find(id: id, tenant: tenant))
            #expect(found.attempt == 2)
            #expect(found.state == .succeeded)
            #expect(found.result == #"{"ok": 2}"#)
            #expect(found.errorMessage == nil)
            #expect(found.input == #"{"message": "hi"}"#)
            #expect(found.createdAt == Date(timeIntervalSince1970: 1_795_490_000.25))
            #expect(found.finishedAt == Date(timeIntervalSince1970: 1_795_490_002))

            // The same attempt may move its own record on; a later one replaces it.
            #expect(try await store.record([job(id, attempt: 3, state: .dead, errorMessage: "gave up")]) == 1)
            #expect(try await store.find(id: id, tenant: tenant)?.state == .dead)

            // Tenant-scoped: another tenant neither sees nor overwrites it.
            let other = try #require(TenantID(validating: "other"))
            _ = try await TenantStore(pool: pool).create(id: other, name: "Other")
            #expect(try await store.find(id: id, tenant: other) == nil)
            var intruder = job(id, attempt: 9, state: .succeeded)
            intruder.tenant = other
            #expect(try await store.record([intruder]) == 0)
            #expect(try await store.find(id: id, tenant: tenant)?.attempt == 3)
        }
    }

    /// PostgreSQL's text and jsonb cannot hold U+0000, which a provider's answer may: it is stored as U+FFFD, and the
    /// batch it came in is written (it failed whole, at every sweep).
    @Test func aResultOrErrorHoldingNULIsStoredWithTheReplacementCharacter() async throws {
        try await TestDatabase.withSchema { pool in
            _ = try await TenantStore(pool: pool).create(id: tenant, name: "Acme")
            let store = JobStore(pool: pool)
            let (succeeded, failed, plain) = (JobID(), JobID(), JobID())
            let written = try await store.record([
                job(succeeded, attempt: 1, state: .succeeded, result: #"{"text": "a\u0000b", "k\u0000": "\\u0000 is an escape"}"#),
                job(failed, attempt: 1, state: .failed, errorMessage: "the model said \0"),
                job(plain, attempt: 1, state: .succeeded, result: #"{"ok": 1}"#),
            ])
            #expect(written == 3)
            let result = try #require(try await store.find(id: succeeded, tenant: tenant)?.result.flatMap(JSONValue.parse))
            #expect(result == .object(["text": .string("a\u{FFFD}b"), "k\u{FFFD}": .string("\\u0000 is an escape")]))
            #expect(try await store.find(id: failed, tenant: tenant)?.errorMessage == "the model said \u{FFFD}")
        }
    }

    @Test func thousandRecordsInOneCall() async throws {
        try await TestDatabase.withSchema { pool in
            _ = try await TenantStore(pool: pool).create(id: tenant, name: "Acme")
            let store = JobStore(pool: pool)
            let jobs = (0..<1000).map { index in
                var job = job(JobID(), attempt: 1, state: index.isMultiple(of: 2) ? .succeeded : .failed)
                job.input = #"{"index": \#(index), "text": "quote \" backslash \\ comma , brace } 世界"}"#
                job.result = index.isMultiple(of: 2) ? #"["a", {"b": null}]"# : nil
                job.errorMessage = index.isMultiple(of: 2) ? nil : "failed: \"NULL\", {x}, \\ \(index)"
                job.startedAt = index.isMultiple(of: 3) ? nil : job.startedAt
                return job
            }
            #expect(try await store.record(jobs) == 1000)
            #expect(try await pool.query("SELECT count(*) AS n FROM jobs").first?.decode("n", as: Int.self) == 1000)
            for index in [0, 1, 3, 998, 999] {
                let found = try #require(try await store.find(id: jobs[index].id, tenant: tenant))
                #expect(found.state == jobs[index].state)
                #expect(found.errorMessage == jobs[index].errorMessage)
                #expect(found.startedAt == jobs[index].startedAt)
                #expect(JSONValue.parse(found.input) == JSONValue.parse(jobs[index].input))
                #expect(found.result.flatMap(JSONValue.parse) == jobs[index].result.flatMap(JSONValue.parse))
            }
            // Recording the batch again as attempt 2 updates every row.
            #expect(
                try await store.record(
                    jobs.map {
                        var job = $0
                        job.attempt = 2
                        return job
                    }) == 1000)
        }
    }

    @Test func duplicatesInOneBatchKeepTheLatestAttempt() async throws {
        try await TestDatabase.withSchema { pool in
            _ = try await TenantStore(pool: pool).create(id: tenant, name: "Acme")
            let store = JobStore(pool: pool)
            let id = JobID()
            let written = try await store.record([
                job(id, attempt: 2, state: .running), job(id, attempt: 1, state: .failed), job(id, attempt: 2, state: .succeeded),
            ])
            #expect(written == 1)
            #expect(try await store.find(id: id, tenant: tenant)?.state == .succeeded)
            #expect(try await store.record([]) == 0)
        }
    }
}
