import NIOCore
import NIOPosix
import Locking

/// Kiln's way to Redis: a few connections that every caller shares, on the event loops the HTTP server uses, and
/// connections of their own for blocking commands.
///
/// Commands that many tasks issue at once go out together on a shared connection and their replies come back in order
/// (automatic pipelining), so no caller waits for another's round trip and no thread waits for any. A slow or dead
/// Redis costs callers their command timeout at most; while it cannot be reached they fail at once with an unavailable
/// ``RedisError``.
public final class RedisPool: Sendable {
    public let configuration: RedisConfiguration
    private let shared: [RedisReconnectingConnection]
    private let nextShared = Locked<Int>(0)
    private let blocking: RedisBlockingConnections
    private let scripts: RedisScriptRegistry

    /// Connections open on first use, on the process's shared event loops (those Hummingbird serves HTTP on).
    public init(configuration: RedisConfiguration) {
        let group = MultiThreadedEventLoopGroup.singleton
        self.configuration = configuration
        let scripts = RedisScriptRegistry()
        self.scripts = scripts
        self.shared = (0..<max(configuration.sharedConnections, 1)).map { _ in
            RedisReconnectingConnection(configuration: configuration, group: group, prepare: scripts.loadAll(on:))
        }
        self.blocking = RedisBlockingConnections(configuration: configuration, group: group)
    }

    /// Sends one command; an error reply is thrown as a server ``RedisError``.
    @discardableResult
    public func send(_ arguments: [String]) async throws -> RedisValue {
        try await connection().send(arguments)
    }

    /// Sends commands one after another with nothing of this caller's in between; error replies come back as
    /// `.error` values.
    public func pipeline(_ commands: [[String]]) async throws -> [RedisValue] {
        guard !commands.isEmpty else { return [] }
        var request = ByteBuffer()
        for command in commands { try request.writeRedisCommand(command) }
        return try await connection().exchange(request, replyCount: commands.count)
    }

    /// Runs one script; its error reply is thrown as a server ``RedisError``.
    public func evaluate(_ call: RedisScriptCall) async throws -> RedisValue {
        let reply = try await evaluate([call])[0]
        if case .error(let message) = reply { throw RedisError.server(message) }
        return reply
    }

    /// Runs scripts one after another, in order; error replies come back as `.error` values.
    public func evaluate(_ calls: [RedisScriptCall]) async throws -> [RedisValue] {
        try await scripts.run(calls, on: connection())
    }

    /// Runs a blocking command (`BLPOP`, `XREAD BLOCK` …) on a connection of its own; its reply may take `blockFor`
    /// plus the command timeout.
    public func sendBlocking(_ arguments: [String], blockFor: Duration) async throws -> RedisValue {
        try await blocking.send(arguments, blockFor: blockFor)
    }

    /// Loads scripts ahead of their first call, so a broken script stops the process at start. Every connection opened
    /// later loads them before it carries a command.
    public func load(_ scripts: [RedisScript]) async throws {
        try await self.scripts.load(scripts, on: connection())
    }

    /// Closes every connection; calls awaiting replies and later calls fail.
    public func close() async throws {
        for connection in shared { connection.close() }
        blocking.close()
    }

    private func connection() async throws -> RedisConnection {
        let index = nextShared.withLock { next in
            defer { next = (next + 1) % shared.count }
            return next
        }
        return try await shared[index].connection()
    }
}
