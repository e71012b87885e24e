import NIOCore
import NIOPosix
import Locking

/// One TCP connection to Redis on an event loop, shared by every caller: commands sent while others await their
/// replies go out together (automatic pipelining), and replies come back in order.
///
/// Callers hand their exchanges to an outbox; the first one into an empty outbox schedules one event-loop task that
/// writes everything queued by then with one flush. So a burst of concurrent calls costs one wake-up of the loop and
/// one write, however many callers it holds.
final class RedisConnection: Sendable {
    private let channel: any Channel
    private let handler: NIOLoopBound<RedisChannelHandler>
    private let outbox = Locked<[RedisExchange]>([])
    /// Exchanges handed in and not yet ended: bounded, so an overloaded caller is refused rather than queued.
    private let outstanding: Outstanding
    private let configuration: RedisConfiguration

    private init(
        channel: any Channel, handler: NIOLoopBound<RedisChannelHandler>, outstanding: Outstanding, configuration: RedisConfiguration
    ) {
        self.channel = channel
        self.handler = handler
        self.outstanding = outstanding
        self.configuration = configuration
    }

    /// Connects on `eventLoop`, then authenticates and selects the database.
    static func connect(_ configuration: RedisConfiguration, on eventLoop: any EventLoop) async throws -> RedisConnection {
        let outstanding = Outstanding()
        let channel: any Channel
        do {
            channel = try await ClientBootstrap(group: eventLoop)
                .connectTimeout(.milliseconds(Int64(configuration.connectTimeout.wholeMilliseconds)))
                .channelOption(.tcpOption(.tcp_nodelay), value: 1)
                .channelInitializer { channel in
                    channel.eventLoop.makeCompletedFuture {
                        try channel.pipeline.syncOperations.addHandler(
                            RedisChannelHandler(ended: { count in outstanding.count.withLock { $0 -= count } }))
                    }
                }
                .connect(host: configuration.host, port: configuration.port)
                .get()
        } catch {
            throw RedisError.connect("\(configuration.host):\(configuration.port): \(RedisError.reason(error))")
        }
        let handler: NIOLoopBound<RedisChannelHandler>
        do {
            handler = try await channel.eventLoop.submit {
                NIOLoopBound(try channel.pipeline.syncOperations.handler(type: RedisChannelHandler.self), eventLoop: channel.eventLoop)
            }.get()
        } catch {
            // The server closed the connection as it opened (a node going down), and the handler left with the pipeline.
            channel.close(promise: nil)
            throw RedisError.connect("\(configuration.host):\(configuration.port): closed as it opened")
        }
        let connection = RedisConnection(channel: channel, handler: handler, outstanding: outstanding, configuration: configuration)
        do {
            if let password = configuration.password {
                // The password is never part of an error: only the reply's first word is kept.
                do {
                    try await connection.send(["AUTH", password])
                } catch let error as RedisError where error.isServerError {
                    throw RedisError.connect("authentication failed (\(error.code))")
                }
            }
            if configuration.database != 0 {
                try await connection.send(["SELECT", String(configuration.database)])
            }
        } catch {
            connection.close()
            throw error
        }
        return connection
    }

    /// False once the connection broke or was closed.
    var isActive: Bool { channel.isActive }

    /// The event loop its replies are read on, which resumes the callers awaiting them.
    var eventLoop: any EventLoop { channel.eventLoop }

    /// Sends one command; an error reply is thrown as a server ``RedisError``.
    @discardableResult
    func send(_ arguments: [String], timeout: Duration? = nil) async throws -> RedisValue {
        var request = channel.allocator.buffer(capacity: 64)
        try request.writeRedisCommand(arguments)
        return try await exchange(request, replyCount: 1, timeout: timeout)[0].checked()
    }

    /// Sends commands together; error replies come back as `.error` values. With `asking`, each is preceded by `ASKING`,
    /// so a cluster node that imports the command's slot takes it (an `ASK` redirect said so); their replies are dropped.
    func exchange(commands: [[String]], asking: Bool = false, timeout: Duration? = nil) async throws -> [RedisValue] {
        guard !commands.isEmpty else { return [] }
        var request = channel.allocator.buffer(capacity: 64 * commands.count)
        for command in commands {
            if asking { try request.writeRedisCommand(["ASKING"]) }
            try request.writeRedisCommand(command)
        }
        let replies = try await exchange(request, replyCount: commands.count * (asking ? 2 : 1), timeout: timeout)
        return asking ? replies.droppingAskingReplies() : replies
    }

    /// Sends RESP-encoded commands together; error replies come back as `.error` values.
    func exchange(_ request: ByteBuffer, replyCount: Int, timeout: Duration? = nil) async throws -> [RedisValue] {
        try await exchange(request, replyCount: replyCount, timeout: timeout) { $0 }
    }

    /// Sends RESP-encoded commands together; `read` gets their replies (error replies as `.error` values) on the
    /// connection's event loop as they arrive, before the caller resumes, and what it returns is the caller's.
    func exchange<Read: Sendable>(
        _ request: ByteBuffer, replyCount: Int, timeout: Duration? = nil, reading read: @escaping @Sendable ([RedisValue]) -> Read
    ) async throws -> Read {
        try await withCheckedThrowingContinuation { continuation in
            exchange(request, replyCount: replyCount, timeout: timeout) { continuation.resume(with: $0.map(read)) }
        }
    }

    /// Sends RESP-encoded commands together and calls `completion` with their replies (error replies as `.error`
    /// values) on the connection's event loop, without a task: at once, on the caller's thread, when the connection
    /// already has as many exchanges out as it takes.
    func exchange(
        _ request: ByteBuffer, replyCount: Int, timeout: Duration? = nil,
        completion: @escaping @Sendable (Result<[RedisValue], any Error>) -> Void
    ) {
        let admitted = outstanding.count.withLock { count in
            guard count < configuration.maxOutstandingCalls else { return false }
            count += 1
            return true
        }
        guard admitted else { return completion(.failure(RedisError.overloaded)) }
        let timeout = TimeAmount.milliseconds(Int64((timeout ?? configuration.commandTimeout).wholeMilliseconds))
        let exchange = RedisExchange(request: request, replyCount: replyCount, timeout: timeout, completion: completion)
        let first = outbox.withLock { waiting in
            waiting.append(exchange)
            return waiting.count == 1
        }
        if first { channel.eventLoop.execute { self.writeOutbox() } }
    }

    /// On the event loop: everything queued since the last write goes out in one flush.
    private func writeOutbox() {
        let exchanges = outbox.withLock { waiting in
            let taken = waiting
            waiting.removeAll(keepingCapacity: true)
            return taken
        }
        handler.value.write(exchanges)
    }

    /// Closes the connection; exchanges still awaiting replies fail.
    func close() {
        channel.close(promise: nil)
    }

    /// A counter the channel handler can reach without holding the connection.
    private final class Outstanding: Sendable {
        let count = Locked<Int>(0)
    }
}

extension [RedisValue] {
    /// The replies of an exchange whose every command followed an `ASKING`, without those of the `ASKING`s.
    func droppingAskingReplies() -> [RedisValue] {
        stride(from: 1, to: count, by: 2).map { self[$0] }
    }
}
