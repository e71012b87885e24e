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
        let redis = PrivateRedis()
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
        for _ in 0..<50 {
            if (try? await namespace.admin.ping()) != nil { break }
            try await Task.sleep(for: .milliseconds(50))
        }
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
        let redis = PrivateRedis()
        try await redis.start()
        var configuration = redis.configuration
        configuration.connectTimeout = .milliseconds(200)
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
            var submitted: JobID?
            for _ in 0..<50 where submitted == nil {
                if case .created(let id, _)? = try? await queue.enqueue(QueueEngineTests.submission("a")) { submitted = id }
            }
            let id = try #require(submitted)
            var state: JobState?
            for _ in 0..<200 where state != .succeeded {
                state = try? await queue.snapshot(id, tenant: #require(TenantID(validating: "a")))?.state
                try await Task.sleep(for: .milliseconds(50))
            }
            #expect(state == .succeeded)
            await group.triggerGracefulShutdown()
            try await running.value
        }
        try await pool.close()
        try await redis.stop()
    }
}
