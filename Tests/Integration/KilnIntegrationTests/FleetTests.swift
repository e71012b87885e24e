import CurlClient
import Foundation
import Glibc
import KilnCore
import KilnKeys
import KilnProviders
import KilnQueue
import KilnWorker
import RedisClient
import Testing

/// What operators see of the fleet and do to it: the workers alive, the attempts they settled per minute, and
/// pausing and resuming a tenant or a class.
@Suite struct FleetTests {
    static func submission(
        _ tenant: String, identity: String = "user-1", kind: String = "diag.echo", input: String = "{}", jobClass: JobClass = .io,
        cap: Int = 1000, delay: Duration = .zero
    ) -> Submission {
        Submission(
            tenant: TenantID(validating: tenant)!, identity: Identity(validating: identity)!, kind: kind, jobClass: jobClass, priority: .normal,
            input: input, maxAttempts: 3, timeout: .seconds(30), delay: delay, runningCap: cap, weight: 1, bodyHash: "")
    }

    static func created(_ outcome: EnqueueOutcome) throws -> JobID {
        guard case .created(let id, _) = outcome else { throw TestFailure("not created: \(outcome)") }
        return id
    }

    // MARK: Pause and resume

    @Test func aPausedTenantsJobIsNotClaimedWhileAnothersIsAndResumingWakesTheClaimers() async throws {
        try await Harness.with { harness in
            let admin = harness.redisNamespace.admin
            let acme = try #require(TenantID(validating: "acme"))
            #expect(try await admin.pause(.tenant(acme)))
            #expect(try await admin.paused() == [.tenant(acme)])
            let paused = try Self.created(try await harness.queue.enqueue(Self.submission("acme")))
            let other = try Self.created(try await harness.queue.enqueue(Self.submission("globex")))
            let first = try await harness.queue.settleAndClaim([], jobClass: .io, count: 10, worker: "w").claimed
            #expect(first.jobs.map(\.id) == [other])
            // It ends, so that its lease cannot run out and bring it back on a slow machine.
            let claimed = try #require(first.jobs.first)
            _ = try await harness.queue.settle([Settlement(job: other, attempt: claimed.attempt, outcome: .succeeded(result: "{}"))])
            // Submissions are still admitted while paused, and wait.
            let later = try Self.created(try await harness.queue.enqueue(Self.submission("acme")))
            #expect(try await harness.queue.settleAndClaim([], jobClass: .io, count: 10, worker: "w").claimed.jobs.isEmpty)
            #expect(try await harness.queue.snapshots([paused, later]).map { $0?.state } == [.queued, .queued])

            // The workers went idle and took every wake-up token: resuming must leave one for them.
            let wake = try harness.keys(tenant: "acme", owner: "user-1").wake(.io)
            _ = try await harness.redis.send(["DEL", wake])
            #expect(try await admin.resume(.tenant(acme)))
            #expect(try await admin.paused().isEmpty)
            #expect(try await harness.redis.send(["LLEN", wake]).int == 1, "resuming wakes an idle worker of the class")
            let resumed = try await harness.queue.settleAndClaim([], jobClass: .io, count: 10, worker: "w").claimed
            #expect(resumed.jobs.map(\.id) == [paused, later])
            #expect(try await admin.resume(.tenant(acme)) == false, "it was no longer paused")
        }
    }

    @Test func aPausedClassClaimsNothingAndWakesNoOtherWorkerUntilResumed() async throws {
        try await Harness.with { harness in
            let admin = harness.redisNamespace.admin
            #expect(try await admin.pause(.jobClass(.io)))
            #expect(try await admin.pause(.jobClass(.io)) == false, "already paused")
            let io = try Self.created(try await harness.queue.enqueue(Self.submission("acme")))
            let cpu = try Self.created(try await harness.queue.enqueue(Self.submission("acme", jobClass: .cpu)))
            let wake = try harness.keys(tenant: "acme", owner: "user-1").wake(.io)
            _ = try await harness.redis.send(["DEL", wake])
            #expect(try await harness.queue.settleAndClaim([], jobClass: .io, count: 10, worker: "w").claimed.jobs.isEmpty)
            #expect(try await harness.redis.send(["LLEN", wake]).int == 0, "a claim of a paused class wakes no other worker")
            #expect(try await harness.queue.settleAndClaim([], jobClass: .cpu, count: 10, worker: "w").claimed.jobs.map(\.id) == [cpu])
            #expect(try await admin.resume(.jobClass(.io)))
            #expect(try await harness.redis.send(["LLEN", wake]).int == 1)
            #expect(try await harness.queue.settleAndClaim([], jobClass: .io, count: 10, worker: "w").claimed.jobs.map(\.id) == [io])
        }
    }

    @Test func aWorkerRunsAPausedTenantsJobOnlyOnceItIsResumed() async throws {
        try await Harness.with { harness in
            let admin = harness.redisNamespace.admin
            let acme = try #require(TenantID(validating: "acme"))
            try await admin.pause(.tenant(acme))
            for tenant in ["acme", "globex"] { _ = try await harness.tenant(tenant) }
            // Long idle waits: only the resume's wake-up can make the worker look again in time.
            harness.startWorker { $0.maxIdleWait = .seconds(600) }
            let paused = try Self.created(try await harness.queue.enqueue(Self.submission("acme")))
            let other = try Self.created(try await harness.queue.enqueue(Self.submission("globex")))
            #expect(try await Eventually.holds { try await harness.queue.snapshots([other]).first??.state == .succeeded })
            #expect(try await harness.queue.snapshots([paused]).first??.state == .queued)
            try await admin.resume(.tenant(acme))
            #expect(try await Eventually.holds { try await harness.queue.snapshots([paused]).first??.state == .succeeded })
        }
    }

    // MARK: Workers alive and throughput

    @Test func aHeartbeatIsAliveUntilItMissesItsBeatsAndItsCountsAddUpPerMinute() async throws {
        try await Harness.with { harness in
            let fleet = harness.redisNamespace.fleet
            let reading = ProviderReading(
                route: "*/diag.generate", provider: "anthropic", model: "claude", circuit: .open, openUntilMilliseconds: 1_790_000_000_000,
                parkedUntilMilliseconds: nil, slotsInUse: 3, slotCap: 8, recentCalls: 20, recentFailures: 7)
            let heartbeat = WorkerHeartbeat(
                id: "host-1-42", host: "host-1", pid: 42, classes: [.io: 64, .cpu: 2], version: "1.2.3", startedAtMilliseconds: 1_789_000_000_000,
                lanes: [.init(jobClass: .io, tenant: "acme", running: 5), .init(jobClass: .cpu, tenant: "globex", running: 1)],
                providers: [reading])
            var ended = OutcomeTally()
            ended.add(.succeeded, jobClass: .io, tenant: "acme", count: 3)
            ended.add(.dead, jobClass: .io, tenant: "acme")
            ended.add(.retried, jobClass: .cpu, tenant: "globex", count: 2)
            let beat = try await fleet.beat(heartbeat, ended: ended, expiresAfter: .seconds(60))
            var second = OutcomeTally()
            second.add(.succeeded, jobClass: .io, tenant: "globex")
            try await fleet.beat(heartbeat, ended: second, expiresAfter: .seconds(60))

            let alive = try await fleet.workersAlive()
            #expect(alive.count == 1)
            let worker = try #require(alive.first)
            #expect(worker.id == "host-1-42" && worker.host == "host-1" && worker.pid == 42 && worker.version == "1.2.3")
            #expect(worker.classes == [.io: 64, .cpu: 2])
            #expect(worker.running == 6)
            #expect(worker.providers == [reading])
            #expect(worker.lastBeatMilliseconds >= beat)

            let throughput = try await fleet.throughput(last: 5, .minute)
            #expect(throughput.starts.count == 5)
            #expect(zip(throughput.starts, throughput.starts.dropFirst()).allSatisfy { $1 - $0 == 60_000 })
            func total(_ series: [AttemptOutcome: [Int]]?, _ outcome: AttemptOutcome) -> Int { series?[outcome]?.reduce(0, +) ?? 0 }
            #expect(total(throughput.byClass[.io], .succeeded) == 4)
            #expect(total(throughput.byClass[.io], .dead) == 1)
            #expect(total(throughput.byClass[.cpu], .retried) == 2)
            #expect(total(throughput.byTenant["acme"], .succeeded) == 3)
            #expect(total(throughput.byTenant["globex"], .succeeded) == 1)
            #expect(total(throughput.byTenant["globex"], .retried) == 2)
            #expect(throughput.byClass[.io]?[.succeeded]?.count == 5)
            // A day's chart reads the same counts by ten minutes.
            let day = try await fleet.throughput(last: 144, .tenMinutes)
            #expect(day.starts.count == 144)
            #expect(zip(day.starts, day.starts.dropFirst()).allSatisfy { $1 - $0 == 600_000 })
            #expect(total(day.byClass[.io], .succeeded) == 4 && total(day.byClass[.io], .dead) == 1)
            #expect(total(day.byTenant["globex"], .retried) == 2)

            // A beat that expires soon, and none after it: the worker is gone once it expired.
            try await fleet.beat(heartbeat, ended: OutcomeTally(), expiresAfter: .milliseconds(200))
            #expect(try await Eventually.holds { try await fleet.workersAlive().isEmpty })
            // A worker that stops says so at once.
            try await fleet.beat(heartbeat, ended: OutcomeTally(), expiresAfter: .seconds(60))
            #expect(try await fleet.workersAlive().count == 1)
            try await fleet.leave(heartbeat.id)
            #expect(try await fleet.workersAlive().isEmpty)
        }
    }

    @Test func aRunningWorkerPublishesItselfAndCountsWhatItSettled() async throws {
        try await Harness.with { harness in
            let fleet = harness.redisNamespace.fleet
            for tenant in ["acme", "globex"] { _ = try await harness.tenant(tenant) }
            // Beats often enough for the test's counts, with room for a loaded machine (three missed and it vanishes).
            harness.startWorker { $0.heartbeatInterval = .seconds(1) }
            var alive: [WorkerHeartbeat] = []
            #expect(
                try await Eventually.holds {
                    alive = try await fleet.workersAlive()
                    return !alive.isEmpty
                })
            #expect(alive.count == 1)
            let worker = try #require(alive.first)
            #expect(worker.id.hasPrefix("test-worker-"))
            #expect(worker.classes == [.io: 16, .cpu: 2])
            #expect(worker.pid == ProcessInfo.processInfo.processIdentifier)
            for _ in 0..<2 { _ = try await harness.queue.enqueue(Self.submission("acme")) }
            _ = try await harness.queue.enqueue(Self.submission("acme", kind: "diag.fail", input: #"{"permanent":true}"#))
            _ = try await harness.queue.enqueue(Self.submission("globex"))
            func counted(_ tenant: String, _ outcome: AttemptOutcome) async throws -> Int {
                try await fleet.throughput(last: 5, .minute).byTenant[tenant]?[outcome]?.reduce(0, +) ?? 0
            }
            #expect(
                try await Eventually.holds {
                    let succeeded = try await counted("acme", .succeeded)
                    let failed = try await counted("acme", .failed)
                    let other = try await counted("globex", .succeeded)
                    return succeeded == 2 && failed == 1 && other == 1
                })
            let byClass = try await fleet.throughput(last: 60, .minute).byClass[.io]
            #expect(byClass?[.succeeded]?.reduce(0, +) == 3)
            #expect(byClass?[.failed]?.reduce(0, +) == 1)
        }
    }

    @Test func aKilledWorkerProcessVanishesAfterItsMissedBeatsAndAStoppedOneAtOnce() async throws {
        try await Harness.with { harness in
            let fleet = harness.redisNamespace.fleet
            let killed = try WorkerProcess(harness)
            let stopped = try WorkerProcess(harness)
            #expect(try await Eventually.holds { try await fleet.workersAlive().count == 2 }, "log: \(killed.logText)")
            let pids = Set(try await fleet.workersAlive().map(\.pid))
            #expect(pids == [killed.pid, stopped.pid])
            #expect(try await fleet.workersAlive().allSatisfy { $0.classes == [.io: 4] })
            killed.kill(SIGKILL)
            #expect(try await killed.waitForExit(within: .seconds(5)))
            #expect(try await Eventually.holds { try await fleet.workersAlive().map(\.pid) == [stopped.pid] })
            stopped.kill(SIGTERM)
            #expect(try await stopped.waitForExit(within: .seconds(30)))
            #expect(try await fleet.workersAlive().isEmpty, "a worker that stops gracefully leaves the fleet")
        }
    }

    @Test func aWorkersMetricsShowItsProvidersCircuitsAndParksAndItsFailuresByKind() async throws {
        try await Harness.with { harness in
            _ = try await harness.tenant("acme")
            let port = try TestPorts.reserve()
            let worker = try WorkerProcess(harness, metricsPort: port)
            // Each series of the worker's /metrics with its value (gauges are written as floats, counters as integers).
            func metrics() async throws -> [String: Double] {
                guard let answer = try? await harness.http.execute(HTTPRequest(url: "http://127.0.0.1:\(port)/metrics"), timeout: .seconds(5)),
                    answer.status == 200
                else { return [:] }
                var series: [String: Double] = [:]
                for line in String(decoding: answer.body, as: UTF8.self).split(separator: "\n") where !line.hasPrefix("#") {
                    guard let space = line.lastIndex(of: " "), let value = Double(line[line.index(after: space)...]) else { continue }
                    series[String(line[..<space])] = value
                }
                return series
            }
            // deploy/providers.json routes diag.generate to anthropic, then openai; nothing has called them.
            let circuit = #"kiln_provider_circuit_state{route="*/diag.generate",provider="anthropic",model="claude-sonnet-4-5-20250929"}"#
            let parked = #"kiln_provider_parked{provider="anthropic"}"#
            #expect(try await Eventually.holds { try await metrics()[circuit] == 0 }, "log: \(worker.logText)")
            #expect(try await metrics()[parked] == 0)
            #expect(try await metrics()[#"kiln_job_failures_total{kind="diag.echo",outcome="dead"}"#] == 0, "every kind starts at zero")

            try await ProviderParking(redis: harness.redis, keys: harness.redisNamespace.shards.control).park("anthropic", for: .seconds(60))
            _ = try await harness.queue.enqueue(Self.submission("acme", kind: "diag.fail", input: #"{"permanent":true}"#))
            #expect(try await Eventually.holds { try await metrics()[parked] == 1 })
            #expect(try await Eventually.holds { try await metrics()[#"kiln_job_failures_total{kind="diag.fail",outcome="failed"}"#] == 1 })
            worker.kill(SIGTERM)
            #expect(try await worker.waitForExit(within: .seconds(30)))
        }
    }

    // MARK: The overview

    @Test func theOverviewCountsEachLaneAndTheJobsCapsHoldBack() async throws {
        // A running job's lease must outlast the test on a loaded machine, or its recovery changes the counts.
        try await Harness.with(Harness.minuteLeases) { harness in
            let admin = harness.redisNamespace.admin
            let queue = harness.queue
            // acme's one identity may run one job at a time: of its three, one runs and two are held.
            for _ in 0..<3 { _ = try await queue.enqueue(Self.submission("acme", identity: "capped", cap: 1)) }
            let doomed = try Self.created(try await queue.enqueue(Self.submission("globex")))
            let claimed = try await queue.settleAndClaim([], jobClass: .io, count: 10, worker: "w").claimed.jobs
            #expect(claimed.count == 2)
            let failed = try #require(claimed.first { $0.id == doomed })
            let running = try #require(claimed.first { $0.id != doomed })
            _ = try await queue.settle([Settlement(job: doomed, attempt: failed.attempt, outcome: .failed(code: "boom", message: "boom"))])
            for _ in 0..<2 { _ = try await queue.enqueue(Self.submission("globex")) }
            _ = try await queue.enqueue(Self.submission("globex", jobClass: .cpu))
            _ = try await queue.enqueue(Self.submission("acme", jobClass: .cpu, delay: .seconds(600)))
            try await admin.pause(.tenant(try #require(TenantID(validating: "globex"))))
            // The worker that runs acme's job says so in its heartbeat.
            let heartbeat = WorkerHeartbeat(
                id: "w", host: "host", pid: 1, classes: [.io: 8], version: "dev", startedAtMilliseconds: 0,
                lanes: [.init(jobClass: .io, tenant: "acme", running: 1)], providers: [])
            try await harness.redisNamespace.fleet.beat(heartbeat, ended: OutcomeTally(), expiresAfter: .seconds(60))

            let overview = try await admin.overview()
            func lane(_ jobClass: JobClass, _ tenant: String) -> QueueOverview.Counts? {
                overview.lanes.first { $0.jobClass == jobClass && $0.tenant == tenant }?.counts
            }
            #expect(overview.lanes.map { "\($0.jobClass.rawValue)/\($0.tenant)" } == ["cpu/acme", "cpu/globex", "io/acme", "io/globex"])
            #expect(lane(.io, "acme")?.ready == 0)
            #expect(lane(.io, "acme")?.inFlight == 1)
            #expect(lane(.io, "globex")?.ready == 2)
            #expect(lane(.io, "globex")?.oldestWaitMilliseconds != nil)
            #expect(lane(.io, "globex")?.dead == 1)
            #expect(lane(.cpu, "globex")?.ready == 1)
            #expect(lane(.cpu, "acme")?.delayed == 1)
            #expect(lane(.cpu, "acme")?.ready == 0)
            #expect(overview.heldByTenant == ["acme": 2])
            #expect(overview.paused == [.tenant(try #require(TenantID(validating: "globex")))])
            #expect(overview.inFlight == 1)
            #expect(overview.delayedSplit == .init(total: 1, counted: 1) && overview.deadSplit == .init(total: 1, counted: 1))
            #expect(overview.byClass[.io]?.ready == 2 && overview.byClass[.io]?.dead == 1 && overview.byClass[.io]?.inFlight == 1)
            #expect(overview.byTenant["globex"]?.ready == 3)

            // acme's job ends: one held job comes back to be claimed, the other stays held.
            _ = try await queue.settle([Settlement(job: running.id, attempt: running.attempt, outcome: .succeeded(result: "{}"))])
            let after = try await admin.overview()
            #expect(after.heldByTenant == ["acme": 1])
            #expect(after.lanes.first { $0.jobClass == .io && $0.tenant == "acme" }?.counts.ready == 1)
            // Once nothing of the identity is held, the index of holders no longer names it.
            let next = try #require(try await queue.settleAndClaim([], jobClass: .io, count: 10, worker: "w").claimed.jobs.first)
            _ = try await queue.settle([Settlement(job: next.id, attempt: next.attempt, outcome: .succeeded(result: "{}"))])
            #expect(try await harness.redis.send(["SCARD", try harness.keys(tenant: "acme", owner: "user-1").holders]).int == 0)
            #expect(try await admin.overview().heldByTenant.isEmpty)
            // A split that reads fewer jobs than the set holds says so.
            let partial = try await admin.overview(splitLimit: 0)
            #expect(partial.deadSplit == .init(total: 1, counted: 0))
            #expect(!partial.deadSplit.isComplete)
        }
    }
}
