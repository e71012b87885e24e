import Foundation
import KilnCore
import KilnQueue
import RedisClient
import Testing

/// The Redis queue engine alone, against the real Redis.
@Suite struct QueueEngineTests {
    static func submission(
        _ tenant: String, identity: String = "user-1", kind: String = "diag.echo", key: String? = nil,
        input: String = "{}", maxAttempts: Int = 3, cap: Int = 1000, weight: Int = 1,
        priority: Priority = .normal, delay: Duration = .zero, timeout: Duration = .seconds(30)
    ) -> Submission {
        Submission(
            tenant: TenantID(validating: tenant)!, identity: Identity(validating: identity)!, kind: kind, jobClass: .io, priority: priority,
            input: input, maxAttempts: maxAttempts, timeout: timeout, delay: delay, runningCap: cap, weight: weight, idempotencyKey: key,
            bodyHash: key == nil ? "" : "body-\(input)")
    }

    /// Writes a `delta` event with `text` for the attempt, numbered `sequence`. - Returns: whether it was appended.
    static func emitDelta(_ text: String, on queue: JobQueue, job: JobID, attempt: Int, sequence: Int) async throws -> Bool {
        try await withCheckedThrowingContinuation { answered in
            queue.emit("delta", data: #"{"text":"\#(text)"}"#, job: job, attempt: attempt, sequence: sequence) { answered.resume(with: $0) }
        }
    }

    @Test func fiftyConcurrentSubmissionsWithOneKeyMakeOneJob() async throws {
        try await Harness.with { harness in
            let outcomes = try await withThrowingTaskGroup(of: EnqueueOutcome.self) { group in
                for _ in 0..<50 { group.addTask { try await harness.queue.enqueue(Self.submission("a", key: "same-key")) } }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            let ids = Set(
                outcomes.compactMap { outcome -> JobID? in
                    switch outcome {
                    case .created(let id, _), .replayed(let id), .conflict(let id): id
                    case .denied: nil
                    }
                })
            #expect(ids.count == 1)
            #expect(outcomes.filter { if case .created = $0 { true } else { false } }.count == 1)
            let conflict = try await harness.queue.enqueue(Self.submission("a", key: "same-key", input: #"{"other":1}"#))
            #expect(conflict == .conflict(try #require(ids.first)))
        }
    }

    @Test func aFloodFromOneTenantDoesNotStarveAnother() async throws {
        // Leases that outlast any pause between the two claims, so the second never finds the first's jobs expired.
        try await Harness.with(Harness.minuteLeases) { harness in
            for _ in 0..<10 {
                _ = try await withThrowingTaskGroup(of: Void.self) { group in
                    for _ in 0..<1000 { group.addTask { _ = try await harness.queue.enqueue(Self.submission("a")) } }
                    try await group.waitForAll()
                }
            }
            _ = try await harness.queue.settleAndClaim([], jobClass: .io, count: 10, worker: "w")
            let late = try await harness.queue.enqueue(Self.submission("b"))
            let (_, batch) = try await harness.queue.settleAndClaim([], jobClass: .io, count: 4, worker: "w")
            guard case .created(let bID, _) = late else { throw TestFailure("not created") }
            #expect(batch.jobs.contains { $0.id == bID }, "tenant b's job must start within one claim round")
        }
    }

    /// A worker waiting for work is woken with the submitted job already claimed and leased to it: on one Redis, the
    /// claim went behind its `BLPOP`. Over several shards or a cluster, the wake-up leaves the claim to the worker.
    @Test func aWaitingWorkerIsWokenWithTheSubmittedJobClaimed() async throws {
        try await Harness.with { harness in
            async let woken = harness.queue.waitForWork(.io, worker: "w", timeout: .seconds(30), thenClaim: 4) { $0 }
            guard case .created(let id, _) = try await harness.queue.enqueue(Self.submission("a")) else { throw TestFailure("not created") }
            let claimedBehindTheWait = try await woken
            let isOneRedis = harness.redisNamespace.shards.count == 1 && harness.redis.configuration.clusterSeeds.isEmpty
            #expect((claimedBehindTheWait != nil) == isOneRedis)
            var batch = claimedBehindTheWait
            if batch == nil { batch = try await harness.queue.settleAndClaim([], jobClass: .io, count: 4, worker: "w").claimed }
            let jobs = try #require(batch).jobs
            #expect(jobs.map(\.id) == [id])
            let job = try #require(jobs.first)
            #expect(try await harness.queue.holdsLease(id, attempt: job.attempt))
        }
    }

    @Test func oneIdentityNeverExceedsItsRunningCap() async throws {
        // Leases that outlast any pause between the two claims, so the second never finds the first's jobs expired.
        try await Harness.with(Harness.minuteLeases) { harness in
            for _ in 0..<20 { _ = try await harness.queue.enqueue(Self.submission("a", identity: "flooder", cap: 3)) }
            _ = try await harness.queue.enqueue(Self.submission("a", identity: "other", cap: 3))
            let (_, batch) = try await harness.queue.settleAndClaim([], jobClass: .io, count: 50, worker: "w")
            #expect(batch.jobs.filter { $0.identity.rawValue == "flooder" }.count == 3)
            #expect(batch.jobs.contains { $0.identity.rawValue == "other" })
            // One of the flooder's jobs ends: exactly one more becomes claimable.
            let done = try #require(batch.jobs.first { $0.identity.rawValue == "flooder" })
            let (_, next) = try await harness.queue.settleAndClaim(
                [Settlement(job: done.id, attempt: done.attempt, outcome: .succeeded(result: "{}"))], jobClass: .io, count: 50, worker: "w")
            #expect(next.jobs.count == 1)
        }
    }

    @Test func aWorkerThatLostItsLeaseCannotAckRetryOrRenew() async throws {
        var configuration = QueueConfiguration()
        configuration.leaseDuration = .milliseconds(200)
        try await Harness.with(configuration) { harness in
            _ = try await harness.queue.enqueue(Self.submission("a"))
            let first = try #require(try await harness.queue.settleAndClaim([], jobClass: .io, count: 1, worker: "zombie").claimed.jobs.first)
            try await Task.sleep(for: .milliseconds(400))
            let second = try #require(try await harness.queue.settleAndClaim([], jobClass: .io, count: 1, worker: "live").claimed.jobs.first)
            #expect(second.id == first.id)
            #expect(second.attempt == first.attempt + 1)
            let renewed = try await harness.queue.renew([(first.id, first.attempt)])
            #expect(renewed.lost == [first.id])
            for outcome: Settlement.Outcome in [.succeeded(result: #"{"from":"zombie"}"#), .retry(code: "x", message: "x", delay: .zero)] {
                #expect(try await harness.queue.settle([Settlement(job: first.id, attempt: first.attempt, outcome: outcome)]) == [nil])
            }
            #expect(
                try await harness.queue.settle([Settlement(job: second.id, attempt: second.attempt, outcome: .succeeded(result: #"{"from":"live"}"#))]
                ).map { $0?.state } == [.succeeded])
            let job = try #require(try await harness.queue.snapshots([first.id]).first ?? nil)
            #expect(job.result == #"{"from":"live"}"#)
        }
    }

    /// Many running jobs stream at once, so their events share script calls: each event reaches its own job's stream,
    /// each job's in the order written, and an attempt that lost its lease is told so and adds nothing, whoever shares
    /// its call.
    @Test func eventsOfManyJobsWrittenAtOnceEachReachTheirOwnStreamInOrder() async throws {
        try await Harness.with { harness in
            for index in 0..<20 { _ = try await harness.queue.enqueue(Self.submission("a", identity: "user-\(index)")) }
            let jobs = try await harness.queue.settleAndClaim([], jobClass: .io, count: 20, worker: "w").claimed.jobs
            try #require(jobs.count == 20)
            let fenced = jobs[7]
            let appended = try await withThrowingTaskGroup(of: (JobID, [Bool]).self) { group in
                for job in jobs {
                    group.addTask {
                        let attempt = job.id == fenced.id ? job.attempt + 1 : job.attempt
                        var appended: [Bool] = []
                        for delta in 0..<10 {
                            appended.append(
                                try await Self.emitDelta(String(delta), on: harness.queue, job: job.id, attempt: attempt, sequence: delta + 1))
                        }
                        return (job.id, appended)
                    }
                }
                return try await group.reduce(into: [:]) { $0[$1.0] = $1.1 }
            }
            for job in jobs {
                let deltas = try await harness.queue.events(of: job.id, after: nil).filter { $0.type == "delta" }.map(\.data)
                if job.id == fenced.id {
                    #expect(appended[job.id] == Array(repeating: false, count: 10))
                    #expect(deltas.isEmpty)
                } else {
                    #expect(appended[job.id] == Array(repeating: true, count: 10))
                    #expect(deltas == (0..<10).map { #"{"text":"\#($0)"}"# })
                }
            }
        }
    }

    /// An event whose write timed out after Redis had appended it is sent again under its number: it is answered as
    /// appended, and the job's stream holds it once. A later attempt numbers its events afresh.
    @Test func anEventSentAgainUnderItsNumberIsAppendedOnce() async throws {
        var configuration = QueueConfiguration()
        configuration.leaseDuration = .milliseconds(200)
        try await Harness.with(configuration) { harness in
            _ = try await harness.queue.enqueue(Self.submission("a"))
            let job = try #require(try await harness.queue.settleAndClaim([], jobClass: .io, count: 1, worker: "w").claimed.jobs.first)
            func emit(_ text: String, attempt: Int, sequence: Int) async throws -> Bool {
                try await Self.emitDelta(text, on: harness.queue, job: job.id, attempt: attempt, sequence: sequence)
            }
            #expect(try await emit("Hello", attempt: job.attempt, sequence: 1))
            #expect(try await emit("Hello", attempt: job.attempt, sequence: 1))
            #expect(try await emit(", world", attempt: job.attempt, sequence: 2))
            var deltas = try await harness.queue.events(of: job.id, after: nil).filter { $0.type == "delta" }.map(\.data)
            #expect(deltas == [#"{"text":"Hello"}"#, #"{"text":", world"}"#])

            // The lease runs out and the job is claimed again: its second attempt's first event is number 1 again.
            try await Task.sleep(for: .milliseconds(400))
            let second = try #require(try await harness.queue.settleAndClaim([], jobClass: .io, count: 1, worker: "w").claimed.jobs.first)
            #expect(second.attempt == job.attempt + 1)
            #expect(try await emit("Again", attempt: second.attempt, sequence: 1))
            deltas = try await harness.queue.events(of: job.id, after: nil).filter { $0.type == "delta" }.map(\.data)
            #expect(deltas.last == #"{"text":"Again"}"#)
        }
    }

    @Test func retriesBackOffThenDeadLetterThenReplay() async throws {
        try await Harness.with { harness in
            guard case .created(let id, _) = try await harness.queue.enqueue(Self.submission("a", kind: "diag.fail", maxAttempts: 2)) else {
                throw TestFailure("not created")
            }
            let first = try #require(try await harness.queue.settleAndClaim([], jobClass: .io, count: 1, worker: "w").claimed.jobs.first)
            let (states, immediate) = try await harness.queue.settleAndClaim(
                [Settlement(job: id, attempt: first.attempt, outcome: .retry(code: "boom", message: "boom", delay: .seconds(2)))],
                jobClass: .io, count: 1, worker: "w")
            #expect(states.map { $0?.state } == [.retrying])
            #expect(immediate.jobs.isEmpty, "a retry waits for its backoff")
            #expect(immediate.nextWakeIn != nil)
            try await Task.sleep(for: .milliseconds(2100))
            let second = try #require(try await harness.queue.settleAndClaim([], jobClass: .io, count: 1, worker: "w").claimed.jobs.first)
            #expect(second.tries == 2)
            let final = try await harness.queue.settle([
                Settlement(job: id, attempt: second.attempt, outcome: .retry(code: "boom", message: "boom", delay: .zero))
            ])
            #expect(final.map { $0?.state } == [.dead])
            #expect(final.first??.errorCode == "boom")
            #expect(try await harness.redisNamespace.admin.deadLetters().map(\.id) == [id])
            #expect(try await harness.redisNamespace.admin.replay(id))
            #expect(try await harness.redisNamespace.admin.deadLetters().isEmpty)
            let replayed = try #require(try await harness.queue.settleAndClaim([], jobClass: .io, count: 1, worker: "w").claimed.jobs.first)
            #expect(replayed.id == id)
            #expect(replayed.tries == 1)
        }
    }

    /// A job a provider throttles again and again (its attempt is not spent) keeps its event stream near the cap.
    @Test func aJobThrottledAgainAndAgainKeepsItsEventStreamNearItsCap() async throws {
        var configuration = QueueConfiguration()
        configuration.streamCap = 10
        try await Harness.with(configuration) { harness in
            guard case .created(let id, _) = try await harness.queue.enqueue(Self.submission("a")) else { throw TestFailure("not created") }
            var settlements: [Settlement] = []
            for _ in 0..<300 {
                let (_, batch) = try await harness.queue.settleAndClaim(settlements, jobClass: .io, count: 1, worker: "w")
                let job = try #require(batch.jobs.first)
                settlements = [Settlement(job: id, attempt: job.attempt, outcome: .throttled(code: "busy", message: "busy", delay: .zero))]
            }
            // 600 events were written; approximate trimming drops whole nodes of 100.
            let kept = try await harness.queue.events(of: id, after: nil, limit: 1_000).count
            #expect(kept <= configuration.streamCap + 100 + 2, "\(kept) events kept")
        }
    }

    @Test func cancellingAQueuedJobEndsItAtOnce() async throws {
        try await Harness.with { harness in
            guard case .created(let id, _) = try await harness.queue.enqueue(Self.submission("a")) else { throw TestFailure("not created") }
            let tenant = try #require(TenantID(validating: "a"))
            let identity = try #require(Identity(validating: "user-1"))
            #expect(try await harness.queue.cancel(id, tenant: tenant, identity: identity) == .cancelled)
            #expect(try await harness.queue.snapshot(id, tenant: tenant)?.state == .cancelled)
            #expect(try await harness.queue.settleAndClaim([], jobClass: .io, count: 10, worker: "w").claimed.jobs.isEmpty)
            #expect(try await harness.queue.cancel(id, tenant: tenant, identity: identity) == .alreadyFinished(.cancelled))
        }
    }

    @Test func higherPrioritiesGoFirstAndDelayedJobsWait() async throws {
        try await Harness.with { harness in
            var ids: [Priority: JobID] = [:]
            for priority in [Priority.low, .normal, .high] {
                guard case .created(let id, _) = try await harness.queue.enqueue(Self.submission("a", priority: priority)) else {
                    throw TestFailure("not created")
                }
                ids[priority] = id
            }
            // Delayed for a minute: not claimable now, whatever the priority (its promotion is tested with retries).
            _ = try await harness.queue.enqueue(Self.submission("a", priority: .high, delay: .seconds(60)))
            let order = try await harness.queue.settleAndClaim([], jobClass: .io, count: 10, worker: "w").claimed.jobs.map(\.id)
            #expect(order == [ids[.high], ids[.normal], ids[.low]].compactMap { $0 })
            #expect(try await harness.redisNamespace.admin.stats().delayed == 1)
        }
    }

    @Test func heavierTenantsGetProportionallyMoreTurns() async throws {
        try await Harness.with { harness in
            for _ in 0..<60 {
                _ = try await harness.queue.enqueue(Self.submission("heavy", weight: 3))
                _ = try await harness.queue.enqueue(Self.submission("light", weight: 1))
            }
            let jobs = try await harness.queue.settleAndClaim([], jobClass: .io, count: 40, worker: "w").claimed.jobs
            let heavy = jobs.filter { $0.tenant.rawValue == "heavy" }.count
            #expect((29...31).contains(heavy), "weight 3 against 1 should take about three quarters of 40 claims, took \(heavy)")
        }
    }

    @Test func aJobCancelledWhileItsWorkerDiesEndsCancelled() async throws {
        var configuration = QueueConfiguration()
        configuration.leaseDuration = .milliseconds(200)
        try await Harness.with(configuration) { harness in
            guard case .created(let id, _) = try await harness.queue.enqueue(Self.submission("a")) else { throw TestFailure("not created") }
            _ = try await harness.queue.settleAndClaim([], jobClass: .io, count: 1, worker: "doomed")
            let tenant = try #require(TenantID(validating: "a"))
            #expect(try await harness.queue.cancel(id, tenant: tenant, identity: #require(Identity(validating: "user-1"))) == .requested)
            try await Task.sleep(for: .milliseconds(300))
            #expect(try await harness.queue.settleAndClaim([], jobClass: .io, count: 1, worker: "next").claimed.jobs.isEmpty)
            #expect(try await harness.queue.snapshot(id, tenant: tenant)?.state == .cancelled)
        }
    }

    @Test func cancellingAReleasedJobReleasesTheNextHeldOne() async throws {
        try await Harness.with { harness in
            var ids: [JobID] = []
            for _ in 0..<3 {
                guard case .created(let id, _) = try await harness.queue.enqueue(Self.submission("a", identity: "x", cap: 1)) else {
                    throw TestFailure("not created")
                }
                ids.append(id)
            }
            let running = try #require(try await harness.queue.settleAndClaim([], jobClass: .io, count: 10, worker: "w").claimed.jobs.first)
            // The first job ends: the second is released from the held list to the ready list, then cancelled.
            _ = try await harness.queue.settle([Settlement(job: running.id, attempt: running.attempt, outcome: .succeeded(result: "{}"))])
            let tenant = try #require(TenantID(validating: "a"))
            #expect(try await harness.queue.cancel(ids[1], tenant: tenant, identity: #require(Identity(validating: "x"))) == .cancelled)
            let next = try await harness.queue.settleAndClaim([], jobClass: .io, count: 10, worker: "w").claimed.jobs.map(\.id)
            #expect(next == [ids[2]])
        }
    }

    @Test func aHeldHighPriorityJobGoesBeforeHeldLowOnes() async throws {
        // Nothing renews the first job's lease here: a long one keeps a slow, loaded run from reclaiming it midway.
        var configuration = QueueConfiguration()
        configuration.leaseDuration = .seconds(120)
        try await Harness.with(configuration) { harness in
            _ = try await harness.queue.enqueue(Self.submission("a", identity: "x", cap: 1))
            let first = try #require(try await harness.queue.settleAndClaim([], jobClass: .io, count: 10, worker: "w").claimed.jobs.first)
            for _ in 0..<3 { _ = try await harness.queue.enqueue(Self.submission("a", identity: "x", cap: 1, priority: .low)) }
            _ = try await harness.queue.settleAndClaim([], jobClass: .io, count: 10, worker: "w")
            guard case .created(let urgent, _) = try await harness.queue.enqueue(Self.submission("a", identity: "x", cap: 1, priority: .high)) else {
                throw TestFailure("not created")
            }
            _ = try await harness.queue.settleAndClaim([], jobClass: .io, count: 10, worker: "w")
            let (_, next) = try await harness.queue.settleAndClaim(
                [Settlement(job: first.id, attempt: first.attempt, outcome: .succeeded(result: "{}"))], jobClass: .io, count: 10, worker: "w")
            #expect(next.jobs.map(\.id) == [urgent])
        }
    }

    @Test func aRecordOfAnEarlierEndDoesNotMarkAReplayedJobRecorded() async throws {
        try await Harness.with { harness in
            guard case .created(let id, _) = try await harness.queue.enqueue(Self.submission("a", maxAttempts: 1)) else {
                throw TestFailure("not created")
            }
            let first = try #require(try await harness.queue.settleAndClaim([], jobClass: .io, count: 1, worker: "w").claimed.jobs.first)
            let failed = try #require(
                try await harness.queue.settle([Settlement(job: id, attempt: first.attempt, outcome: .failed(code: "boom", message: "boom"))]).first
                    ?? nil)
            let earlier = try #require(first.finished(failed, result: nil))
            #expect(earlier.record.errorCode == "boom")
            #expect(try await harness.redisNamespace.admin.replay(id))
            let second = try #require(try await harness.queue.settleAndClaim([], jobClass: .io, count: 1, worker: "w").claimed.jobs.first)
            // The replayed attempt ends a millisecond or more later than the first, so its finish time differs.
            try await Task.sleep(for: .milliseconds(5))
            let succeeded = try #require(
                try await harness.queue.settle([Settlement(job: id, attempt: second.attempt, outcome: .succeeded(result: "{}"))]).first ?? nil)
            let later = try #require(second.finished(succeeded, result: "{}"))

            try await harness.queue.markRecorded([earlier])
            #expect(try await harness.redisNamespace.admin.stats().unrecorded == 1)
            try await harness.queue.markRecorded([later])
            #expect(try await harness.redisNamespace.admin.stats().unrecorded == 0)
        }
    }
}
