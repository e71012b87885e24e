import Foundation
import KilnCore
import KilnAssembly
import KilnHandlers
import KilnQueue
import KilnStore
import KilnWorker
import RedisClient
import ServiceLifecycle
import Testing

/// A Redis of the test's own (``PrivateRedis``), restarted under the queue: accepted jobs survive.
@Suite struct RedisRestartTests {
    @Test func aRestartLosesNoAcceptedJob() async throws {
        let redis = try PrivateRedis()
        try await redis.start()
        let pool = RedisPool(configuration: redis.configuration)
        let namespace = try RedisNamespace(redis: pool)
        let queue = namespace.queue
        try await namespace.prepare()
        var accepted: Set<JobID> = []
        for index in 0..<200 {
            let submission = QueueEngineTests.submission("a", identity: "user-\(index % 7)")
            if case .created(let id, _) = try await queue.enqueue(submission) { accepted.insert(id) }
        }
        let running = try await queue.settleAndClaim([], jobClass: .io, count: 20, worker: "before-restart").claimed.jobs
        try await redis.stop()
        try await redis.start()
        // The connection to the old server broke; the next call opens a new one, which loads the scripts before it
        // carries a command. Calls within the reconnect backoff fail at once, as an API node's would with a 503.
        _ = try await Eventually.holds { (try? await namespace.admin.ping()) != nil }
        var seen = Set(running.map(\.id))
        var settlements = running.map { Settlement(job: $0.id, attempt: $0.attempt, outcome: .succeeded(result: "{}")) }
        while true {
            let (states, batch) = try await queue.settleAndClaim(settlements, jobClass: .io, count: 50, worker: "after-restart")
            #expect(states.allSatisfy { $0?.state == .succeeded })
            if batch.jobs.isEmpty { break }
            seen.formUnion(batch.jobs.map(\.id))
            settlements = batch.jobs.map { Settlement(job: $0.id, attempt: $0.attempt, outcome: .succeeded(result: "{}")) }
        }
        #expect(seen == accepted)
        try await pool.close()
        try await redis.stop()
    }
}

extension RedisRestartTests {
    @Test func aWorkerRidesOutARedisRestart() async throws {
        let redis = try PrivateRedis()
        try await redis.start()
        var configuration = redis.configuration
        // A stopped Redis refuses a connection at once; the timeout only bounds a handshake, which a machine loaded by the
        // whole suite can take more than 200 ms to finish.
        configuration.connectTimeout = .seconds(2)
        let pool = RedisPool(configuration: configuration)
        try await Harness.with { harness in
            let namespace = try RedisNamespace(redis: pool)
            let queue = namespace.queue
            try await namespace.prepare()
            _ = try await harness.tenant("a")
            var workerConfiguration = WorkerConfiguration()
            workerConfiguration.concurrency = [.io: 4]
            workerConfiguration.maxIdleWait = .milliseconds(200)
            let worker = harness.assembly(redis: namespace).worker(
                handlers: .diagnostics, configuration: workerConfiguration, logger: harness.logger)
            let group = ServiceGroup(services: [worker], gracefulShutdownSignals: [], logger: harness.logger)
            let running = Task { try await group.run() }
            try await redis.stop()
            try await Task.sleep(for: .milliseconds(500))
            try await redis.start()
            // Submissions within the reconnect backoff fail at once, as an API node's would with a 503.
            let id = try #require(
                try await Eventually.value { () async -> JobID? in
                    guard case .created(let id, _)? = try? await queue.enqueue(QueueEngineTests.submission("a")) else { return nil }
                    return id
                })
            let tenant = try #require(TenantID(validating: "a"))
            #expect(try await Eventually.holds { (try? await queue.snapshot(id, tenant: tenant))?.state == .succeeded })
            await group.triggerGracefulShutdown()
            try await running.value
        }
        try await pool.close()
        try await redis.stop()
    }
}

extension RedisRestartTests {
    /// Jobs that report progress every 100 ms, on their only attempt, while Redis restarts: the outage is shorter than
    /// the lease (15 s here, so that a restart slowed by a loaded machine still is), so every job keeps its attempt and
    /// succeeds. Their deadline is long too: a loaded machine can stretch a 4 s job past the usual 30 s.
    @Test func aRedisBlipShorterThanTheLeaseFailsNoRunningJob() async throws {
        let redis = try PrivateRedis()
        try await redis.start()
        var configuration = redis.configuration
        // A stopped Redis refuses a connection at once; the timeout only bounds a handshake, which a machine loaded by the
        // whole suite can take more than 200 ms to finish.
        configuration.connectTimeout = .seconds(2)
        let pool = RedisPool(configuration: configuration)
        var leases = QueueConfiguration()
        leases.leaseDuration = .seconds(15)
        do {
            try await Harness.with(leases) { harness in
                let namespace = try RedisNamespace(redis: pool, configuration: harness.redisNamespace.configuration)
                let queue = namespace.queue
                try await namespace.prepare()
                let tenant = try await harness.tenant("a").tenant.id
                var workerConfiguration = WorkerConfiguration()
                workerConfiguration.concurrency = [.io: 32]
                workerConfiguration.renewInterval = .milliseconds(200)
                workerConfiguration.maxIdleWait = .milliseconds(200)
                harness.run(
                    harness.assembly(redis: namespace).worker(handlers: .diagnostics, configuration: workerConfiguration, logger: harness.logger))
                var ids: [JobID] = []
                for index in 0..<20 {
                    let submission = QueueEngineTests.submission(
                        "a", identity: "user-\(index)", kind: "diag.sleep", input: #"{"seconds":4,"progress_steps":40}"#, maxAttempts: 1,
                        timeout: .seconds(300))
                    if case .created(let id, _) = try await queue.enqueue(submission) { ids.append(id) }
                }
                for id in ids { _ = try await harness.awaitRunning(id, tenant, orDone: true, on: queue) }
                try await redis.stop()
                try await Task.sleep(for: .seconds(1))
                try await redis.start()
                var states: [JobID: JobSnapshot] = [:]
                let deadline = ContinuousClock.now + .seconds(90)
                while states.count < ids.count, ContinuousClock.now < deadline {
                    for id in ids where states[id] == nil {
                        if let job = try? await queue.snapshot(id, tenant: tenant), job.state.isTerminal { states[id] = job }
                    }
                    try await Task.sleep(for: .milliseconds(100))
                }
                #expect(states.count == ids.count)
                #expect(states.values.filter { $0.state == .succeeded }.count == ids.count, "\(states.values.map { ($0.state, $0.errorCode) })")
                #expect(states.values.allSatisfy { $0.attempt == 1 })
            }
        } catch {
            try? await pool.close()
            try? await redis.stop()
            throw error
        }
        try await pool.close()
        try await redis.stop()
    }
}
