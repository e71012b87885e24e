import Foundation
import NIOCore
import RedisClient
import Testing

/// The event-loop Redis client against the real Redis.
@Suite struct RedisClientTests {
    /// Appends `ARGV[1]` to the list `KEYS[1]`: a script whose effect a test can read back.
    static let push = RedisScript(name: "test-push", source: "return redis.call('RPUSH', KEYS[1], ARGV[1])")

    static func pool() throws -> RedisPool {
        guard let configuration = RedisConfiguration(url: try TestServers.redisURL) else { throw TestFailure("bad KILN_TEST_REDIS_URL") }
        return RedisPool(configuration: configuration)
    }

    @Test func commandsAreBinarySafeAndPipelined() async throws {
        let redis = try Self.pool()
        let key = "test-binary-\(UUID().uuidString)"
        // NUL, CR LF and multi-byte characters: each argument goes by its length, never by a terminator.
        let value = "\u{0}a\r\n$3\r\n*1 é 🔥\u{0}"
        let bytes = Array(value.utf8)
        try await redis.send(["SET", key, value])
        let replies = try await redis.pipeline([["GET", key], ["STRLEN", key], ["DEL", key], ["GET", key]])
        #expect(replies[0] == .bulk(bytes))
        #expect(replies[1].int == Int64(bytes.count))
        #expect(replies[2].int == 1)
        #expect(replies[3].isNull)
        try await redis.close()
    }

    /// A hash read whole and a stream's entries, as the queue's roles read them: names to values, entries in order.
    @Test func aHashAndAStreamReadAsFieldsAndEntries() async throws {
        let redis = try Self.pool()
        let hash = "test-hash-\(UUID().uuidString)"
        let stream = "test-stream-\(UUID().uuidString)"
        try await redis.send(["HSET", hash, "state", "running", "attempt", "2"])
        #expect(try await redis.send(["HGETALL", hash]).fields == ["state": "running", "attempt": "2"])
        #expect(try await redis.send(["HGETALL", "test-missing-\(UUID().uuidString)"]).fields.isEmpty)
        let first = try #require(try await redis.send(["XADD", stream, "*", "type", "progress", "data", "0.5"]).string)
        let second = try #require(try await redis.send(["XADD", stream, "*", "type", "status"]).string)
        let entries = try await redis.send(["XRANGE", stream, "-", "+"]).streamEntries
        #expect(entries.map(\.id) == [first, second])
        #expect(entries.map(\.fields) == [["type": "progress", "data": "0.5"], ["type": "status"]])
        #expect(try await redis.send(["XREVRANGE", stream, "+", "-"]).streamEntries.map(\.id) == [second, first])
        try await redis.send(["DEL", hash, stream])
        try await redis.close()
    }

    /// Lengths of one, two and more digits, and commands of more than ten and a hundred arguments, as Redis reads them.
    @Test func argumentsOfEveryLengthArriveWhole() async throws {
        let redis = try Self.pool()
        let key = "test-lengths-\(UUID().uuidString)"
        let values = [0, 1, 9, 10, 11, 99, 100, 101, 999, 100_000].map { String(repeating: "x", count: $0) }
        let fields = values.indices.flatMap { ["field-\($0)", values[$0]] }
        try await redis.send(["HSET", key] + fields)
        let stored = try await redis.send(["HMGET", key] + values.indices.map { "field-\($0)" })
        #expect(stored.array?.map(\.string) == values)
        let many = (0..<150).map { "member-\($0)" }
        #expect(try await redis.send(["SADD", key + "-set"] + many).int == 150)
        _ = try await redis.send(["DEL", key, key + "-set"])
        try await redis.close()
    }

    /// Thousands of callers share one connection: each gets its own replies, in its own order.
    @Test func concurrentCallersEachGetTheirOwnReplies() async throws {
        let redis = try Self.pool()
        let prefix = "test-shared-\(UUID().uuidString)"
        let mismatches = try await withThrowingTaskGroup(of: Int.self) { group in
            for caller in 0..<2_000 {
                group.addTask {
                    let key = "\(prefix)-\(caller)"
                    let set = try await redis.send(["SET", key, String(caller)])
                    let replies = try await redis.pipeline([["INCR", key], ["GET", key], ["DEL", key]])
                    let expected: [RedisValue] = [.integer(Int64(caller + 1)), .bulk(Array(String(caller + 1).utf8)), .integer(1)]
                    return set == .status("OK") && replies == expected ? 0 : 1
                }
            }
            return try await group.reduce(0, +)
        }
        #expect(mismatches == 0)
        try await redis.close()
    }

    @Test func anErrorReplyIsThrownWithItsCode() async throws {
        let redis = try Self.pool()
        let key = "test-type-\(UUID().uuidString)"
        try await redis.send(["SET", key, "x"])
        let error = await #expect(throws: RedisError.self) { try await redis.send(["LPUSH", key, "y"]) }
        #expect(error?.code == "WRONGTYPE")
        #expect(error?.isUnavailable == false)
        // The connection survives an error reply, and one error in a pipeline is that command's alone.
        let replies = try await redis.pipeline([["GET", key], ["LPUSH", key, "y"], ["DEL", key]])
        #expect(replies[0].string == "x")
        #expect(replies[2].int == 1)
        try await redis.close()
    }

    /// On a Redis of its own: a flush on the shared server would make the other suites' pipelines meet `NOSCRIPT`.
    @Test func scriptsRunAgainInTheirOrderAfterAFlush() async throws {
        let server = try PrivateRedis()
        try await server.start()
        let redis = RedisPool(configuration: server.configuration)
        let add = RedisScript(name: "test-add", source: "return tonumber(ARGV[1]) + tonumber(ARGV[2])")
        try await redis.load([Self.push, add])
        #expect(try await redis.evaluate(RedisScriptCall(add, keys: [], arguments: ["2", "3"])).int == 5)
        try await redis.send(["SCRIPT", "FLUSH"])
        let replies = try await redis.evaluate([
            RedisScriptCall(Self.push, keys: ["order"], arguments: ["first"]), RedisScriptCall(add, keys: [], arguments: ["4", "5"]),
            RedisScriptCall(Self.push, keys: ["order"], arguments: ["second"]),
        ])
        #expect(replies == [.integer(1), .integer(9), .integer(2)])
        #expect(try await redis.send(["LRANGE", "order", "0", "-1"]) == .array([.bulk(Array("first".utf8)), .bulk(Array("second".utf8))]))
        try await redis.close()
        try await server.stop()
    }

    @Test func aBlockingCommandReturnsWhenItsTimeoutPasses() async throws {
        let redis = try Self.pool()
        let reply = try await redis.sendBlocking(["BLPOP", "test-empty-\(UUID().uuidString)", "0.1"], blockFor: .milliseconds(100))
        #expect(reply.isNull)
        try await redis.close()
    }

    /// A blocking command holds a connection of its own: commands sent meanwhile are answered.
    @Test func aBlockingCommandDoesNotHoldBackOthers() async throws {
        let redis = try Self.pool()
        let list = "test-wake-\(UUID().uuidString)"
        async let woken = redis.sendBlocking(["BLPOP", list, "10"], blockFor: .seconds(10))
        var pushed = false
        for _ in 0..<200 where !pushed {
            // The push only lands once the BLPOP waits; before that the list just holds the token.
            pushed = try await redis.send(["RPUSH", list, "token"]).int == 1
        }
        #expect(try await woken == .array([.bulk(Array(list.utf8)), .bulk(Array("token".utf8))]))
        try await redis.close()
    }

    /// A script call sent behind a blocking command runs once the block ends, not before: it sees the list as the
    /// `BLPOP` left it, whether the push came before the `BLPOP` or while it waited.
    @Test func aCallBehindABlockingCommandRunsOnceTheBlockEnds() async throws {
        let redis = try Self.pool()
        let list = "test-then-\(UUID().uuidString)"
        let rest = RedisScript(name: "test-rest", source: "return redis.call('LRANGE', KEYS[1], 0, -1)")
        try await redis.load([rest])
        async let woken = redis.sendBlocking(["BLPOP", list, "10"], blockFor: .seconds(10), then: RedisScriptCall(rest, keys: [list], arguments: []))
        {
            ($0, $1)
        }
        try await redis.send(["RPUSH", list, "first", "second"])
        let (reply, then) = try await woken
        #expect(reply == .array([.bulk(Array(list.utf8)), .bulk(Array("first".utf8))]))
        #expect(then == .array([.bulk(Array("second".utf8))]))
        _ = try await redis.send(["DEL", list])
        try await redis.close()
    }

    /// A call whose script this pool never loaded is not sent: the caller makes it, and the wait is as without it.
    @Test func aCallOfAScriptNotLoadedIsLeftToTheCaller() async throws {
        let redis = try Self.pool()
        let never = RedisScript(name: "test-never-loaded", source: "return '\(UUID().uuidString)'")
        let (reply, then) = try await redis.sendBlocking(
            ["BLPOP", "test-empty-\(UUID().uuidString)", "0.1"], blockFor: .milliseconds(100), then: RedisScriptCall(never, keys: [], arguments: [])
        ) { ($0, $1) }
        #expect(reply.isNull)
        #expect(then == nil)
        try await redis.close()
    }

    /// On a Redis of its own, which forgets the scripts: a call that met `NOSCRIPT` did not run, and is the caller's.
    @Test func aCallThatMetNoScriptIsLeftToTheCaller() async throws {
        let server = try PrivateRedis()
        try await server.start()
        let redis = RedisPool(configuration: server.configuration)
        try await redis.load([Self.push])
        try await redis.send(["SCRIPT", "FLUSH"])
        let (reply, then) = try await redis.sendBlocking(
            ["BLPOP", "empty", "0.1"], blockFor: .milliseconds(100), then: RedisScriptCall(Self.push, keys: ["pushed"], arguments: ["x"])
        ) { ($0, $1) }
        #expect(reply.isNull)
        #expect(then == nil)
        #expect(try await redis.send(["EXISTS", "pushed"]).int == 0)
        try await redis.close()
        try await server.stop()
    }

    /// An error reply to a blocking command is the caller's; the connection it came on serves the next one, so
    /// failing commands do not pile up connections. On a Redis of its own, whose clients the test counts.
    @Test func aBlockingCommandsErrorReplyKeepsItsConnection() async throws {
        let server = try PrivateRedis()
        try await server.start()
        let redis = RedisPool(configuration: server.configuration)
        // Commands from outside the event loops take the shared connections in turn: these open every one of them.
        for _ in 0..<8 { try await redis.send(["SET", "not-a-list", "x"]) }
        let shared = try await Self.connectedClients(redis)
        // One shared connection on each event loop of the process, however many commands.
        #expect(shared == NIOSingletons.groupLoopCountSuggestion)
        for _ in 0..<10 {
            let error = await #expect(throws: RedisError.self) {
                try await redis.sendBlocking(["BLPOP", "not-a-list", "1"], blockFor: .seconds(1))
            }
            #expect(error?.code == "WRONGTYPE")
        }
        // The shared connections and one blocking connection.
        #expect(try await Self.connectedClients(redis) == shared.map { $0 + 1 })
        try await redis.close()
        try await server.stop()
    }

    /// Whether a PING is answered within a minute of trying.
    private static func answersPing(_ redis: RedisPool) async throws -> Bool {
        try await Eventually.holds { (try? await redis.send(["PING"])) == .status("PONG") }
    }

    private static func connectedClients(_ redis: RedisPool) async throws -> Int? {
        let clients = try await redis.send(["INFO", "clients"]).string ?? ""
        let line = clients.split(separator: "\r\n").first { $0.hasPrefix("connected_clients:") }
        return line.flatMap { Int($0.dropFirst("connected_clients:".count)) }
    }

    @Test func anUnreachableServerIsUnavailable() async throws {
        var configuration = RedisConfiguration()
        configuration.port = 1
        let redis = RedisPool(configuration: configuration)
        let error = await #expect(throws: RedisError.self) { try await redis.send(["PING"]) }
        #expect(error?.isUnavailable == true)
        // Said as an operator would: not SwiftNIO's account of each connect attempt.
        #expect(error?.description == "redis connect failed: 127.0.0.1:1: connection refused")
        // Within the reconnect backoff the next call fails at once, unavailable too.
        let again = await #expect(throws: RedisError.self) { try await redis.send(["PING"]) }
        #expect(again?.isUnavailable == true)
        try await redis.close()
    }

    /// A Redis that stops answering (paused by `CLIENT PAUSE`) costs a call its command timeout, then the pool
    /// recovers by itself.
    @Test func aStalledServerTimesOutAndThePoolRecovers() async throws {
        let server = try PrivateRedis()
        try await server.start()
        var configuration = server.configuration
        configuration.commandTimeout = .milliseconds(200)
        let redis = RedisPool(configuration: configuration)
        let admin = RedisPool(configuration: server.configuration)
        // Connected before the pause. At the moment the whole suite starts, a first PING can take longer than 200 ms.
        try #require(try await Self.answersPing(redis))
        // Long enough that even a loaded machine sends the PING inside it; the pause ends by itself.
        try await admin.send(["CLIENT", "PAUSE", "15000", "ALL"])
        let error = await #expect(throws: RedisError.self) { try await redis.send(["PING"]) }
        #expect(error?.isUnavailable == true)
        #expect(try await Self.answersPing(redis))
        try await redis.close()
        try await admin.close()
        try await server.stop()
    }

    /// Past `maxOutstandingCalls` awaiting replies, calls are refused as unavailable rather than queued.
    @Test func callsPastTheOutstandingLimitAreRefused() async throws {
        let server = try PrivateRedis()
        try await server.start()
        var configuration = server.configuration
        configuration.maxOutstandingCalls = 4
        // The calls let out wait for the pause's end: they are answered, not timed out.
        configuration.commandTimeout = .seconds(60)
        let redis = RedisPool(configuration: configuration)
        let admin = RedisPool(configuration: server.configuration)
        try await redis.send(["PING"])
        // Long enough that even a loaded machine sends the calls inside it; the pause ends by itself.
        try await admin.send(["CLIENT", "PAUSE", "15000", "ALL"])
        let outcomes = await withTaskGroup(of: Result<RedisValue, any Error>.self) { group in
            for _ in 0..<100 {
                group.addTask {
                    do { return .success(try await redis.send(["PING"])) } catch { return .failure(error) }
                }
            }
            return await group.reduce(into: []) { $0.append($1) }
        }
        let answered = outcomes.filter { (try? $0.get()) == .status("PONG") }.count
        let refused = outcomes.filter { if case .failure(let error) = $0 { (error as? RedisError)?.isUnavailable == true } else { false } }.count
        #expect(answered >= 1)
        #expect(refused >= 1)
        #expect(answered + refused == 100)
        try await redis.close()
        try await admin.close()
        try await server.stop()
    }
}
