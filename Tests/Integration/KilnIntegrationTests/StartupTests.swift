import Foundation
import KilnCore
import KilnQueue
import RedisClient
import Testing

/// `kiln api` and `kiln worker` started before Redis and PostgreSQL (a host's boot, a deploy of the whole stack): they
/// wait for them, saying so, and come up with them instead of exiting.
@Suite struct StartupTests {
    @Test func theAPIWaitsForRedisAndPostgreSQLAndIsReadyOnlyOnceBothAnswer() async throws {
        let redis = try PrivateRedis()
        let postgres = try PrivatePostgres()
        // The cluster exists, its server is down.
        try await postgres.start()
        try await postgres.stop()
        do {
            try await Harness.with { harness in
                let api = try APIProcess(
                    try harness.kilnCommand([], redisURL: "redis://127.0.0.1:\(redis.port)", databaseURL: postgres.url))
                #expect(try await Eventually.holds { api.logText.contains("service=redis") })
                #expect(api.isRunning)
                #expect(await api.status("/readyz", http: harness.http) == nil)
                try await redis.start()
                #expect(try await Eventually.holds { api.logText.contains("service=postgres") })
                #expect(api.isRunning)
                #expect(await api.status("/readyz", http: harness.http) == nil)
                try await postgres.start()
                #expect(try await api.waitUntilReady(within: .seconds(60), http: harness.http))
            }
        } catch {
            try? await redis.stop()
            await postgres.remove()
            throw error
        }
        try await redis.stop()
        await postgres.remove()
    }

    @Test func aWorkerWaitsForRedisAndThenRunsJobs() async throws {
        let redis = try PrivateRedis()
        do {
            try await Harness.with { harness in
                _ = try await harness.tenant("acme")
                let worker = try WorkerProcess(harness, redisURL: "redis://127.0.0.1:\(redis.port)")
                #expect(try await Eventually.holds { worker.logText.contains("service=redis") })
                #expect(worker.isRunning)
                try await redis.start()
                let pool = RedisPool(configuration: redis.configuration)
                let namespace = try RedisNamespace(redis: pool, configuration: harness.redisNamespace.configuration)
                try await namespace.prepare()
                guard case .created(let id, _) = try await namespace.queue.enqueue(QueueEngineTests.submission("acme")) else {
                    throw TestFailure("the job was not created")
                }
                let tenant = try #require(TenantID(validating: "acme"))
                #expect(try await Eventually.holds { try await namespace.queue.snapshot(id, tenant: tenant)?.state == .succeeded })
                worker.kill(SIGTERM)
                #expect(try await worker.waitForExit(within: .seconds(20)))
                try await pool.close()
            }
        } catch {
            try? await redis.stop()
            throw error
        }
        try await redis.stop()
    }
}
