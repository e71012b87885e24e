import Foundation
import KilnQueue
import RedisClient
import Testing

/// A restarted Redis (``PrivateRedis``) still loading its data answers `LOADING`: the API treats it as out of reach,
/// as it does a Redis that is down, and takes jobs again once it has loaded.
@Suite struct RedisLoadingTests {
    @Test func whileRedisLoadsSubmissionsAndReadinessAre503WithRetryAfter() async throws {
        let redis = try PrivateRedis()
        try await redis.start()
        // Enough data, loaded slowly (500 µs a key, Redis's own test setting), to take twenty seconds and more: a
        // machine loaded by the full suite must still have time to send its requests while Redis loads.
        try await redis.fill(keys: 40_000)
        try await redis.stop()
        let pool = RedisPool(configuration: redis.configuration)
        let probe = RedisPool(configuration: redis.patientConfiguration)
        do {
            try await Harness.with { harness in
                let client = try await harness.tenant("acme")
                let namespace = try RedisNamespace(redis: pool, configuration: harness.redisNamespace.configuration)
                let api = try await harness.startAPI(over: harness.dependencies(redis: namespace))
                // Everything else is ready: the seconds of loading are the test's.
                try await redis.start(["--key-load-delay", "500", "--loading-process-events-interval-bytes", "1024"], untilLoaded: false)
                let body = #"{"kind":"diag.echo","input":{}}"#
                var answeredWhileLoading = 0
                while answeredWhileLoading < 5, try await Self.isLoading(probe) {
                    let submission = try await harness.send(try harness.request("POST", "/v1/jobs", as: client, body: body, base: api))
                    let readiness = try await harness.send(try harness.request("GET", "/readyz", as: client, base: api))
                    // Only answers given while Redis was loading before and after them count.
                    guard try await Self.isLoading(probe) else { break }
                    APITests.expectUnavailable(submission, code: "queue_unavailable")
                    APITests.expectUnavailable(readiness, code: "queue_unavailable")
                    answeredWhileLoading += 1
                }
                #expect(answeredWhileLoading > 0)
                _ = try await Eventually.holds(within: .seconds(120), every: .milliseconds(200)) { try await !Self.isLoading(probe) }
                #expect(
                    try await Eventually.holds(every: .milliseconds(100)) {
                        try await harness.send(try harness.request("POST", "/v1/jobs", as: client, body: body, base: api)).status == 202
                    })
            }
        } catch {
            try? await pool.close()
            try? await probe.close()
            try? await redis.stop()
            throw error
        }
        try await pool.close()
        try await probe.close()
        try await redis.stop()
    }

    /// Whether Redis answers `LOADING`.
    private static func isLoading(_ redis: RedisPool) async throws -> Bool {
        do {
            try await redis.send(["PING"])
            return false
        } catch let error as RedisError where error.code == "LOADING" {
            return true
        }
    }
}
