import NIOPosix
import Synchronization

/// Connections to one PostgreSQL database, each used by one caller at a time on a thread of the pool's own,
/// since libpq blocks.
public final class PostgresPool: Sendable {
    private struct State {
        var idle: [PostgresConnection] = []
        var open = 0
        /// Each waiter receives a connection, or nil as permission to open one.
        var waiters: [CheckedContinuation<PostgresConnection?, any Error>] = []
        var closed = false
    }

    public let configuration: PostgresConfiguration
    private let threadPool: NIOThreadPool
    private let state = Mutex(State())

    /// Starts `configuration.poolSize` threads; connections open on first use.
    public init(configuration: PostgresConfiguration) {
        self.configuration = configuration
        self.threadPool = NIOThreadPool(numberOfThreads: max(1, configuration.poolSize))
        threadPool.start()
    }

    /// Runs `body` with a connection on one of the pool's threads. A connection that broke, or that `body` left
    /// inside a transaction, is closed rather than handed to the next caller.
    public func withConnection<T: Sendable>(_ body: @escaping @Sendable (PostgresConnection) throws -> T) async throws -> T {
        let reserved = try await acquire()
        let configuration = self.configuration
        let outcome: (Result<T, any Error>, PostgresConnection?)
        do {
            outcome = try await threadPool.runIfActive {
                let connection: PostgresConnection
                do {
                    connection = try reserved ?? PostgresConnection(configuration: configuration)
                } catch {
                    return (.failure(error), nil)
                }
                return (Result { try body(connection) }, connection)
            }
        } catch {
            release(reserved)
            throw error
        }
        release(outcome.1)
        return try outcome.0.get()
    }

    /// Runs `body` in a transaction on one connection: `COMMIT` when it returns, `ROLLBACK` when it throws.
    public func withTransaction<T: Sendable>(_ body: @escaping @Sendable (PostgresConnection) throws -> T) async throws -> T {
        try await withConnection { connection in
            try connection.withTransaction { try body(connection) }
        }
    }

    /// Runs one statement and returns its rows.
    @discardableResult
    public func query(_ sql: String, _ parameters: [any PostgresEncodable] = []) async throws -> PostgresRows {
        try await withConnection { try $0.query(sql, parameters) }
    }

    /// Runs one statement and returns how many rows it inserted, updated or deleted.
    @discardableResult
    public func execute(_ sql: String, _ parameters: [any PostgresEncodable] = []) async throws -> Int {
        try await withConnection { try $0.execute(sql, parameters) }
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
        for waiter in waiters { waiter.resume(throwing: PostgresError.poolClosed) }
        for connection in idle { connection.close() }
        try await threadPool.shutdownGracefully()
    }

    private func acquire() async throws -> PostgresConnection? {
        try await withCheckedThrowingContinuation { continuation in
            enum Grant {
                case connection(PostgresConnection?)
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
            case .closed: continuation.resume(throwing: PostgresError.poolClosed)
            case .wait: break
            }
        }
    }

    /// Returns a connection; nil gives its place back (the connection broke or was never opened).
    private func release(_ connection: PostgresConnection?) {
        let usable: PostgresConnection?
        if let connection, connection.isReusable {
            usable = connection
        } else {
            connection?.close()
            usable = nil
        }
        let waiter: CheckedContinuation<PostgresConnection?, any Error>? = state.withLock { state in
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
