import NIOPosix
import Synchronization

/// Connections of a blocking C library, each used by one caller at a time on a thread of the pool's own, so no
/// blocking call ever runs on Swift's cooperative pool. Connections open on first use, up to `size`; callers beyond
/// that wait in order.
public final class ThreadedConnectionPool<Connection: PooledConnection>: Sendable {
    private struct State {
        var idle: [Connection] = []
        var open = 0
        /// Each waiter receives a connection, or nil as permission to open one.
        var waiters: [CheckedContinuation<Connection?, any Error>] = []
        var closed = false
    }

    private enum Grant {
        case connection(Connection?)
        case closed
        case wait
    }

    private let configuration: Connection.Configuration
    private let size: Int
    private let closedError: any Error & Sendable
    private let threadPool: NIOThreadPool
    private let state = Mutex(State())

    /// Starts `size` threads. - Parameter closedError: what callers get once the pool is closed.
    public init(configuration: Connection.Configuration, size: Int, closedError: any Error & Sendable) {
        self.configuration = configuration
        self.size = max(1, size)
        self.closedError = closedError
        self.threadPool = NIOThreadPool(numberOfThreads: self.size)
        threadPool.start()
    }

    /// Runs `body` with a connection on one of the pool's threads. A connection that is no longer reusable afterwards
    /// is closed rather than handed to the next caller.
    public func withConnection<T: Sendable>(_ body: @escaping @Sendable (Connection) throws -> T) async throws -> T {
        let reserved = try await acquire()
        let configuration = self.configuration
        let outcome: (Result<T, any Error>, Connection?)
        do {
            outcome = try await threadPool.runIfActive {
                let connection: Connection
                do {
                    connection = try reserved ?? Connection(configuration: configuration)
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

    /// Closes idle connections and stops the threads; callers waiting for a connection get `closedError`.
    public func close() async throws {
        let (idle, waiters) = state.withLock { state in
            state.closed = true
            defer {
                state.idle = []
                state.waiters = []
            }
            return (state.idle, state.waiters)
        }
        for waiter in waiters { waiter.resume(throwing: closedError) }
        for connection in idle { connection.close() }
        try await threadPool.shutdownGracefully()
    }

    private func acquire() async throws -> Connection? {
        try await withCheckedThrowingContinuation { continuation in
            let grant: Grant = state.withLock { state in
                if state.closed { return .closed }
                if let connection = state.idle.popLast() { return .connection(connection) }
                if state.open < size {
                    state.open += 1
                    return .connection(nil)
                }
                state.waiters.append(continuation)
                return .wait
            }
            switch grant {
            case .connection(let connection): continuation.resume(returning: connection)
            case .closed: continuation.resume(throwing: closedError)
            case .wait: break
            }
        }
    }

    /// Returns a connection; nil gives its place back (the connection broke or was never opened).
    private func release(_ connection: Connection?) {
        let usable: Connection?
        if let connection, connection.isReusable {
            usable = connection
        } else {
            connection?.close()
            usable = nil
        }
        let waiter: CheckedContinuation<Connection?, any Error>? = state.withLock { state in
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
