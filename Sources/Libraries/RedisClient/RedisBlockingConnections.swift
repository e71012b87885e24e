import NIOCore
import Locking

/// Connections for blocking commands (`BLPOP`, `XREAD BLOCK`), each lent to one caller at a time: a blocking command
/// holds its connection's replies back, so it must never share one.
///
/// At most `configuration.blockingConnections` are lent at once; later callers wait in order. Idle connections are
/// kept for the next caller, and a caller on an event loop gets one on its own loop where it can: the reply resumes it
/// there, so an event stream that waits for its job's next event and writes it to its HTTP connection stays on one
/// thread. On another loop, each event crossed between the two threads, with a wake-up each way.
final class RedisBlockingConnections: Sendable {
    private struct State {
        var idle: [RedisConnection] = []
        var lent = 0
        var waiting = CircularBuffer<CheckedContinuation<Void, any Error>>()
        var closed = false
    }

    private let configuration: RedisConfiguration
    private let group: any EventLoopGroup
    private let state = Locked(State())

    init(configuration: RedisConfiguration, group: any EventLoopGroup) {
        self.configuration = configuration
        self.group = group
    }

    /// Sends one blocking command on a connection of its own (preceded by `ASKING` with `asking`, after a cluster's `ASK`
    /// redirect). A reply may take `blockFor` plus the command timeout. Cancelling the caller closes that connection, so
    /// the command stops waiting too.
    func send(_ arguments: [String], blockFor: Duration, asking: Bool = false) async throws -> RedisValue {
        try await onLentConnection(blockFor: blockFor) { connection, timeout in
            guard asking else { return try await connection.send(arguments, timeout: timeout) }
            return try await connection.exchange(commands: [arguments], asking: true, timeout: timeout)[0].checked()
        }
    }

    /// Sends a blocking command and the commands after it in one write, on a connection of their own: Redis holds a
    /// blocked client's later commands and runs them the moment the block ends. `read` gets the replies (error replies
    /// as `.error` values) on the connection's event loop as they arrive, before the caller resumes, and what it returns
    /// is the caller's; the replies may take `blockFor` plus the command timeout.
    func exchange<Read: Sendable>(
        _ request: ByteBuffer, replyCount: Int, blockFor: Duration, reading read: @escaping @Sendable ([RedisValue]) -> Read
    ) async throws -> Read {
        try await onLentConnection(blockFor: blockFor) { connection, timeout in
            try await connection.exchange(request, replyCount: replyCount, timeout: timeout, reading: read)
        }
    }

    /// Runs `body` on a lent connection with the timeout its replies have. Cancelling the caller closes the connection.
    private func onLentConnection<Reply: Sendable>(
        blockFor: Duration, _ body: (RedisConnection, Duration) async throws -> Reply
    ) async throws -> Reply {
        let connection = try await lend()
        do {
            let reply = try await withTaskCancellationHandler {
                try await body(connection, blockFor + configuration.commandTimeout)
            } onCancel: {
                connection.close()
            }
            giveBack(connection)
            return reply
        } catch let error as RedisError where error.isServerError {
            // Redis answered, with an error: the connection is as good as before.
            giveBack(connection)
            throw error
        } catch {
            // Broken, timed out or cancelled: a late reply must never be read as the next caller's.
            connection.close()
            giveBack(nil)
            throw error
        }
    }

    /// Closes the idle connections; lent ones close when given back, and waiting callers fail.
    func close() {
        let (idle, waiting) = state.withLock { state in
            state.closed = true
            defer {
                state.idle.removeAll()
                state.waiting.removeAll()
            }
            return (state.idle, state.waiting)
        }
        for connection in idle { connection.close() }
        for waiter in waiting { waiter.resume(throwing: RedisError.poolClosed) }
    }

    /// The group's event loop the caller runs on, if it runs on one.
    private var callersLoop: (any EventLoop)? {
        group.makeIterator().first { $0.inEventLoop }
    }

    private func lend() async throws -> RedisConnection {
        enum Step {
            case use(RedisConnection)
            case connect
            case wait
        }
        let here = callersLoop
        while true {
            let step = try state.withLock { state -> Step in
                guard !state.closed else { throw RedisError.poolClosed }
                if let here, let index = state.idle.lastIndex(where: { $0.eventLoop === here }) {
                    state.lent += 1
                    return .use(state.idle.remove(at: index))
                }
                // A caller off the loops takes any idle connection before a new one.
                if here != nil || state.idle.isEmpty, state.lent + state.idle.count < configuration.blockingConnections {
                    state.lent += 1
                    return .connect
                }
                if let connection = state.idle.popLast() {
                    state.lent += 1
                    return .use(connection)
                }
                return .wait
            }
            switch step {
            case .use(let connection) where connection.isActive:
                return connection
            case .use, .connect:
                do {
                    return try await RedisConnection.connect(configuration, on: here ?? group.next())
                } catch {
                    giveBack(nil)
                    throw error
                }
            case .wait:
                // Woken when a connection is given back; then it tries again.
                try await withCheckedThrowingContinuation { continuation in
                    enum Now {
                        case wait
                        case retry
                        case fail
                    }
                    let now = state.withLock { state -> Now in
                        if state.closed { return .fail }
                        // A connection may have come back since the decision to wait.
                        if !state.idle.isEmpty || state.lent < configuration.blockingConnections { return .retry }
                        state.waiting.append(continuation)
                        return .wait
                    }
                    switch now {
                    case .wait: break
                    case .retry: continuation.resume()
                    case .fail: continuation.resume(throwing: RedisError.poolClosed)
                    }
                }
            }
        }
    }

    /// Ends a loan: a usable connection is kept for the next caller, a broken one (nil) is dropped.
    private func giveBack(_ connection: RedisConnection?) {
        let (waiter, closing) = state.withLock { state -> (CheckedContinuation<Void, any Error>?, Bool) in
            state.lent -= 1
            if let connection, connection.isActive, !state.closed { state.idle.append(connection) }
            return (state.waiting.popFirst(), state.closed)
        }
        if closing || connection?.isActive == false { connection?.close() }
        waiter?.resume()
    }
}
