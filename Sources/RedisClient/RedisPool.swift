import ConnectionPooling

/// Connections to one Redis server, each used by one caller at a time on a thread of the pool's own.
///
/// Blocking commands (`BLPOP`, `XREAD BLOCK`) hold a thread and a connection for as long as they block:
/// give them a pool of their own so they never starve ordinary commands.
public final class RedisPool: Sendable {
    public let configuration: RedisConfiguration
    private let pool: ThreadedConnectionPool<RedisConnection>
    private let scripts = RedisScriptRegistry()

    /// Starts `configuration.poolSize` threads; connections open on first use.
    public init(configuration: RedisConfiguration) {
        self.configuration = configuration
        self.pool = ThreadedConnectionPool(configuration: configuration, size: configuration.poolSize, closedError: RedisError.poolClosed)
    }

    /// Runs `body` with a connection on one of the pool's threads.
    public func withConnection<T: Sendable>(_ body: @escaping @Sendable (RedisConnection) throws -> T) async throws -> T {
        try await pool.withConnection(body)
    }

    /// Sends one command.
    @discardableResult
    public func send(_ arguments: [String]) async throws -> RedisValue {
        try await withConnection { try $0.send(arguments) }
    }

    /// Sends commands in one round trip.
    public func pipeline(_ commands: [[String]]) async throws -> [RedisValue] {
        try await withConnection { try $0.pipeline(commands) }
    }

    /// Runs one script; its error reply is thrown as a server ``RedisError``.
    public func evaluate(_ call: RedisScriptCall) async throws -> RedisValue {
        try await withConnection { connection in try self.evaluate(call, on: connection) }
    }

    /// Runs one script on a connection the caller holds.
    public func evaluate(_ call: RedisScriptCall, on connection: RedisConnection) throws -> RedisValue {
        let reply = try scripts.run([call], on: connection)[0]
        if case .error(let message) = reply { throw RedisError.server(message) }
        return reply
    }

    /// Runs several scripts in one round trip; error replies come back as `.error` values.
    public func evaluate(_ calls: [RedisScriptCall], on connection: RedisConnection) throws -> [RedisValue] {
        try scripts.run(calls, on: connection)
    }

    /// Loads scripts ahead of their first call, so a broken script stops the process at start.
    public func load(_ scripts: [RedisScript]) async throws {
        try await withConnection { connection in
            for script in scripts { try self.scripts.load(script, on: connection) }
        }
    }

    /// Closes idle connections and stops the threads; callers waiting for a connection get an error.
    public func close() async throws {
        try await pool.close()
    }
}
