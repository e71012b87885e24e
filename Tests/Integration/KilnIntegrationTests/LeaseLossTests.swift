import KilnCore
import KilnQueue
import Testing

/// Leases lost to workers that die (crash loops): the job's attempts are not spent, a job that takes every worker down
/// with it is buried all the same, and a dead worker's jobs are spread over the workers that claim next.
@Suite struct LeaseLossTests {
    /// Leases of a second, lost when the worker holding one renews nothing for ``lapse``; long enough that a test on a
    /// loaded machine settles a claim before its lease runs out.
    static var shortLeases: QueueConfiguration {
        var configuration = QueueConfiguration()
        configuration.leaseDuration = .seconds(1)
        configuration.maxLeaseLosses = 3
        return configuration
    }

    static let lapse = Duration.milliseconds(1200)

    @Test func aJobWhoseWorkersDieKeepsItsAttempts() async throws {
        try await Harness.with(Self.shortLeases) { harness in
            // Two attempts, and two workers die while running it: it still runs a third time, and succeeds.
            guard case .created(let id, _) = try await harness.queue.enqueue(QueueEngineTests.submission("a", maxAttempts: 2)) else {
                throw TestFailure("not created")
            }
            for crash in 0..<2 {
                #expect(
                    try await harness.queue.settleAndClaim([], jobClass: .io, count: 1, worker: "crashing-\(crash)").claimed.jobs.map(\.id) == [id])
                try await Task.sleep(for: Self.lapse)
            }
            let last = try #require(try await harness.queue.settleAndClaim([], jobClass: .io, count: 1, worker: "healthy").claimed.jobs.first)
            #expect(last.id == id)
            #expect(last.attempt == 3)
            #expect(last.tries == 1)
            let settled = try await harness.queue.settle([Settlement(job: id, attempt: last.attempt, outcome: .succeeded(result: "{}"))])
            #expect(settled.map { $0?.state } == [.succeeded])
        }
    }

    @Test func aJobThatKillsEveryWorkerEndsDeadSayingSo() async throws {
        try await Harness.with(Self.shortLeases) { harness in
            guard case .created(let id, _) = try await harness.queue.enqueue(QueueEngineTests.submission("a", maxAttempts: 10)) else {
                throw TestFailure("not created")
            }
            var claims = 0
            for crash in 0..<4 {
                claims += try await harness.queue.settleAndClaim([], jobClass: .io, count: 1, worker: "killed-\(crash)").claimed.jobs.count
                try await Task.sleep(for: Self.lapse)
            }
            // Three workers took it and died; the fourth claim's sweep buried it.
            #expect(claims == 3)
            let tenant = try #require(TenantID(validating: "a"))
            let job = try #require(try await harness.queue.snapshot(id, tenant: tenant))
            #expect(job.state == .dead)
            #expect(job.errorCode == "lease_expired_repeatedly")
            #expect(job.errorMessage?.contains("3 times") == true)
            // Replayed once its cause is fixed, it starts counting again: one more lost lease does not bury it.
            #expect(try await harness.redisNamespace.admin.replay(id))
            #expect(try await harness.queue.settleAndClaim([], jobClass: .io, count: 1, worker: "fixed").claimed.jobs.map(\.id) == [id])
            try await Task.sleep(for: Self.lapse)
            #expect(try await harness.queue.settleAndClaim([], jobClass: .io, count: 1, worker: "after-fix").claimed.jobs.map(\.id) == [id])
        }
    }

    @Test func aDeadWorkersJobsAreSpreadOverTheClaimers() async throws {
        try await Harness.with(Self.shortLeases) { harness in
            var ids: Set<JobID> = []
            for index in 0..<6 {
                if case .created(let id, _) = try await harness.queue.enqueue(QueueEngineTests.submission("a", identity: "user-\(index)")) {
                    ids.insert(id)
                }
            }
            let taken = try await harness.queue.settleAndClaim([], jobClass: .io, count: 10, worker: "dies").claimed.jobs
            #expect(Set(taken.map(\.id)) == ids)
            try await Task.sleep(for: Self.lapse)
            // Each claim takes one of them from each shard, however many it asks for; between them, the claimers take them
            // all. (On a loaded machine a lease of these claims may run out too: that job comes round again, one a claim
            // as well.)
            var recovered: Set<JobID> = []
            for round in 0..<30 where recovered != ids {
                let batch = try await harness.queue.settleAndClaim([], jobClass: .io, count: 10, worker: "claimer-\(round % 3)").claimed.jobs
                #expect(!batch.isEmpty && Dictionary(grouping: batch, by: \.id.shard).values.allSatisfy { $0.count == 1 })
                recovered.formUnion(batch.map(\.id))
            }
            #expect(recovered == ids)
        }
    }
}
