public import NIOPosix
import Synchronization

/// Connections to one Redis server, each used by one caller at a time on a thread of the pool's own.
///
/// Blocking commands (`BLPOP`, `XREAD BLOCK`) hold a thread and a connection for as long as they block:
/// give them a pool of their own so they never starve ordinary commands.
public final class RedisPool: Sendable {
    private struct State {
        var idle: [RedisConnection] = []
        var open = 0
        /// Each waiter receives a connection, or nil as permission to open one.
        var waiters: [CheckedContinuation<RedisConnection?, any Error>] = []
        var closed = false
    }

    public let configuration: RedisConfiguration
    private let threadPool: NIOThreadPool
    private let state = Mutex(State())
    private let scripts = RedisScriptRegistry()

    /// Starts `configuration.poolSize` threads; connections open on first use.
    public init(configuration: RedisConfiguration) {
        self.configuration = configuration
        self.threadPool = NIOThreadPool(numberOfThreads: max(1, configuration.poolSize))
        threadPool.start()
    }

    /// Runs `body` with a connection on one of the pool's threads.
    public func withConnection<T: Sendable>(_ body: @escaping @Sendable (RedisConnection) throws -> T) async throws -> T {
        let reserved = try await acquire()
        let configuration = self.configuration
        let outcome: (Result<T, any Error>, RedisConnection?)
        do {
            outcome = try await threadPool.runIfActive {
                let connection: RedisConnection
                do {
                    connection = try reserved ?? RedisConnection(configuration: configuration)
                } catch {
                    return (.failure(error), nil)
                }
                // A server error reply leaves the connection usable; an I/O error has already broken it.
                return (Result { try body(connection) }, connection)
            }
        } catch {
            release(reserved)
            throw error
        }
        release(outcome.1)
        return try outcome.0.get()
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
    public func evaluate(_ script: RedisScript, keys: [String], arguments: [String]) async throws -> RedisValue {
        let call = RedisScriptCall(script, keys: keys, arguments: arguments)
        return try await withConnection { connection in try self.evaluate(call, on: connection) }
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
        let (idle, waiters) = state.withLock { state in
            state.closed = true
            defer {
                state.idle = []
                state.waiters = []
            }
            return (state.idle, state.waiters)
        }
        for waiter in waiters { waiter.resume(throwing: RedisError.poolClosed) }
        for connection in idle { connection.close() }
        try await threadPool.shutdownGracefully()
    }

    private func acquire() async throws -> RedisConnection? {
        try await withCheckedThrowingContinuation { continuation in
            enum Grant {
                case connection(RedisConnection?)
                case closed
                case wait
            }
            let grant: Grant = state.withLock { state in
                if state.closed { return .closed }
                if let connection = state.idle.popLast() { return .connection(connection) }
                if state.open < configuration.poolSize {
                    state.open += 1
                    return .connection(nil)
                }
                state.waiters.append(continuation)
                return .wait
            }
            switch grant {
            case .connection(let connection): continuation.resume(returning: connection)
            case .closed: continuation.resume(throwing: RedisError.poolClosed)
            case .wait: break
            }
        }
    }

    /// Returns a connection; nil gives its place back (the connection broke or was never opened).
    private func release(_ connection: RedisConnection?) {
        let usable = connection.flatMap { $0.isBroken ? nil : $0 }
        let waiter: CheckedContinuation<RedisConnection?, any Error>? = state.withLock { state in
            if !state.waiters.isEmpty {
                return state.waiters.removeFirst()
            }
            if let usable, !state.closed {
                state.idle.append(usable)
            } else {
                state.open -= 1
                usable?.close()
            }
            return nil
        }
        waiter?.resume(returning: usable)
    }
}
