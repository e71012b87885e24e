import Foundation
import RedisClient
import Testing

/// The hiredis wrapper against the real Redis.
@Suite struct RedisClientTests {
    static func pool() throws -> RedisPool {
        guard let configuration = RedisConfiguration(url: try TestServers.redisURL) else { throw TestFailure("bad KILN_TEST_REDIS_URL") }
        return RedisPool(configuration: configuration)
    }

    @Test func commandsAreBinarySafeAndPipelined() async throws {
        let redis = try Self.pool()
        let key = "test-binary-\(UUID().uuidString)"
        let bytes: [UInt8] = [0, 1, 2, 0xFF, 0x0D, 0x0A, 0x20, 0]
        try await redis.withConnection { connection in
            _ = try connection.send([Array("SET".utf8), Array(key.utf8), bytes])
        }
        let replies = try await redis.pipeline([["GET", key], ["STRLEN", key], ["DEL", key], ["GET", key]])
        #expect(replies[0] == .bulk(bytes))
        #expect(replies[1].int == Int64(bytes.count))
        #expect(replies[2].int == 1)
        #expect(replies[3].isNull)
        try await redis.close()
    }

    @Test func anErrorReplyIsThrownWithItsCode() async throws {
        let redis = try Self.pool()
        let key = "test-type-\(UUID().uuidString)"
        try await redis.send(["SET", key, "x"])
        let error = await #expect(throws: RedisError.self) { try await redis.send(["LPUSH", key, "y"]) }
        #expect(error?.code == "WRONGTYPE")
        #expect(error?.isUnavailable == false)
        // The connection survives an error reply.
        #expect(try await redis.send(["DEL", key]).int == 1)
        try await redis.close()
    }

    /// On a Redis of its own: a flush on the shared server would make the other suites' pipelines meet `NOSCRIPT`.
    @Test func scriptsAreReloadedAfterAFlush() async throws {
        let server = PrivateRedis()
        try await server.start()
        let redis = RedisPool(configuration: server.configuration)
        let script = RedisScript(name: "test-add", source: "return tonumber(ARGV[1]) + tonumber(ARGV[2])")
        try await redis.load([script])
        #expect(try await redis.evaluate(RedisScriptCall(script, keys: [], arguments: ["2", "3"])).int == 5)
        try await redis.send(["SCRIPT", "FLUSH"])
        #expect(try await redis.evaluate(RedisScriptCall(script, keys: [], arguments: ["4", "5"])).int == 9)
        try await redis.close()
        try await server.stop()
    }

    @Test func aBlockingCommandReturnsWhenItsTimeoutPasses() async throws {
        let redis = try Self.pool()
        let reply = try await redis.withConnection { connection in
            try connection.sendBlocking(["BLPOP", "test-empty-\(UUID().uuidString)", "0.1"], blockFor: .milliseconds(100))
        }
        #expect(reply.isNull)
        try await redis.close()
    }

    @Test func anUnreachableServerIsUnavailable() async throws {
        var configuration = RedisConfiguration()
        configuration.port = 1
        let redis = RedisPool(configuration: configuration)
        let error = await #expect(throws: RedisError.self) { try await redis.send(["PING"]) }
        #expect(error?.isUnavailable == true)
        try await redis.close()
    }
}
