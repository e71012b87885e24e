import NIOCore
import ServiceFailures
import Locking

/// One shared connection that is opened on first use and opened again after it breaks.
///
/// Callers arriving while it connects wait for that one attempt. After a failed attempt, calls fail at once (Redis is
/// unavailable) until the backoff (``ReconnectBackoff``) passes; a successful connect resets it.
final class RedisReconnectingConnection: Sendable {
    private enum State {
        case idle
        case connecting(EventLoopFuture<RedisConnection>)
        case connected(RedisConnection)
        case backingOff(until: ContinuousClock.Instant, failures: Int, error: any Error)
        case closed
    }

    private enum Step {
        case use(RedisConnection)
        case wait(EventLoopFuture<RedisConnection>)
        case connect(EventLoopPromise<RedisConnection>, failures: Int)
        case fail(any Error)
    }

    private let configuration: RedisConfiguration
    /// The loop every connection it opens lives on.
    let eventLoop: any EventLoop
    /// Runs on each new connection before any caller's command: the pool loads its scripts there.
    private let prepare: @Sendable (RedisConnection) async throws -> Void
    private let state = Locked<State>(.idle)

    init(configuration: RedisConfiguration, eventLoop: any EventLoop, prepare: @escaping @Sendable (RedisConnection) async throws -> Void) {
        self.configuration = configuration
        self.eventLoop = eventLoop
        self.prepare = prepare
    }

    /// The open connection, connecting first when there is none.
    func connection() async throws -> RedisConnection {
        let step = state.withLock { state -> Step in
            switch state {
            case .connected(let connection) where connection.isActive:
                return .use(connection)
            case .connecting(let attempt):
                return .wait(attempt)
            case .backingOff(let until, _, let error) where ContinuousClock.now < until:
                return .fail(error)
            case .closed:
                return .fail(RedisError.poolClosed)
            case .idle, .connected, .backingOff:
                var failures = 0
                if case .backingOff(_, let failed, _) = state { failures = failed }
                let promise = eventLoop.makePromise(of: RedisConnection.self)
                state = .connecting(promise.futureResult)
                return .connect(promise, failures: failures)
            }
        }
        switch step {
        case .use(let connection):
            return connection
        case .wait(let attempt):
            return try await attempt.get()
        case .fail(let error):
            throw error
        case .connect(let promise, let failures):
            do {
                let connection = try await RedisConnection.connect(configuration, on: eventLoop)
                do {
                    try await prepare(connection)
                } catch {
                    connection.close()
                    throw error
                }
                let closed = state.withLock { state -> Bool in
                    if case .closed = state { return true }
                    state = .connected(connection)
                    return false
                }
                if closed { connection.close() }
                promise.succeed(connection)
                return connection
            } catch {
                let delay = ReconnectBackoff(maximum: configuration.maxReconnectDelay).delay(afterFailures: failures + 1)
                state.withLock { state in
                    if case .closed = state { return }
                    state = .backingOff(until: .now + delay, failures: failures + 1, error: error)
                }
                promise.fail(error)
                throw error
            }
        }
    }

    /// The connection when it is open, without connecting.
    var open: RedisConnection? {
        state.withLock { state in
            guard case .connected(let connection) = state, connection.isActive else { return nil }
            return connection
        }
    }

    /// Closes the connection; later calls fail with a closed-pool error.
    func close() {
        let previous = state.withLock { state -> State in
            defer { state = .closed }
            return state
        }
        if case .connected(let connection) = previous { connection.close() }
    }
}
