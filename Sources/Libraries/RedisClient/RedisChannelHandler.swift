import NIOCore

/// Commands written together, whose replies one caller receives in order.
struct RedisExchange: Sendable {
    /// The commands in RESP.
    let request: ByteBuffer
    /// How many replies they bring.
    let replyCount: Int
    /// How long the replies may take once written.
    let timeout: TimeAmount
    /// Called once, on the connection's event loop, with the replies or what ended the exchange.
    let completion: @Sendable (Result<[RedisValue], any Error>) -> Void
}

/// One Redis connection's end of the channel, on its event loop: writes exchanges, reads replies with hiredis's reader
/// and hands them to their callers in the order the commands went out (Redis answers in order).
///
/// A reply later than its exchange's timeout fails that exchange and every one behind it, and closes the connection:
/// a command cannot be withdrawn once sent, so a late reply would otherwise be taken for the next command's.
final class RedisChannelHandler: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    private struct Awaited {
        var replies: [RedisValue]
        let replyCount: Int
        let deadline: NIODeadline
        let completion: @Sendable (Result<[RedisValue], any Error>) -> Void
    }

    private let reader = RedisReplyReader()
    private var awaited = CircularBuffer<Awaited>()
    private var context: ChannelHandlerContext?
    private var deadlineCheck: Scheduled<Void>?
    /// Set once the connection is closing: later exchanges fail with it at once.
    private var failure: RedisError?
    /// Told how many exchanges ended, so the connection knows how many are still out.
    private let ended: @Sendable (Int) -> Void

    init(ended: @escaping @Sendable (Int) -> Void) {
        self.ended = ended
    }

    func handlerAdded(context: ChannelHandlerContext) {
        self.context = context
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        fail(with: RedisError.io("connection closed"))
        self.context = nil
    }

    /// Writes the exchanges and flushes once, so commands from many callers leave in one write.
    func write(_ exchanges: [RedisExchange]) {
        guard let context, failure == nil else {
            let error = failure ?? RedisError.io("connection closed")
            for exchange in exchanges { exchange.completion(.failure(error)) }
            ended(exchanges.count)
            return
        }
        let now = NIODeadline.now()
        for exchange in exchanges {
            var replies: [RedisValue] = []
            replies.reserveCapacity(exchange.replyCount)
            awaited.append(
                Awaited(replies: replies, replyCount: exchange.replyCount, deadline: now + exchange.timeout, completion: exchange.completion))
            context.write(wrapOutboundOut(exchange.request), promise: nil)
        }
        context.flush()
        scheduleDeadlineCheck()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        do {
            try reader.feed(unwrapInboundIn(data))
            while let reply = try reader.next() {
                guard !awaited.isEmpty else { throw RedisError.protocolViolation("a reply came that no command asked for") }
                awaited[awaited.startIndex].replies.append(reply)
                if awaited[awaited.startIndex].replies.count == awaited[awaited.startIndex].replyCount {
                    let done = awaited.removeFirst()
                    done.completion(.success(done.replies))
                    ended(1)
                }
            }
        } catch {
            close(context, failing: error as? RedisError ?? RedisError.io(RedisError.reason(error)))
        }
    }

    func channelInactive(context: ChannelHandlerContext) {
        fail(with: RedisError.io("the server closed the connection"))
        context.fireChannelInactive()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        close(context, failing: RedisError.io(RedisError.reason(error)))
    }

    private func close(_ context: ChannelHandlerContext, failing error: RedisError) {
        fail(with: error)
        context.close(promise: nil)
    }

    /// Fails every awaited exchange; the connection takes no more.
    private func fail(with error: RedisError) {
        if failure == nil { failure = error }
        deadlineCheck?.cancel()
        deadlineCheck = nil
        let failed = awaited
        awaited.removeAll()
        for exchange in failed { exchange.completion(.failure(error)) }
        if !failed.isEmpty { ended(failed.count) }
    }

    /// One timer at a time, set for the oldest exchange's deadline; when it fires it moves on to the next oldest.
    private func scheduleDeadlineCheck() {
        guard deadlineCheck == nil, let context, let oldest = awaited.first else { return }
        deadlineCheck = context.eventLoop.assumeIsolated().scheduleTask(deadline: oldest.deadline) {
            self.deadlineCheck = nil
            guard let oldest = self.awaited.first else { return }
            if oldest.deadline <= .now() {
                self.close(context, failing: RedisError.timeout("no reply within the command timeout"))
            } else {
                self.scheduleDeadlineCheck()
            }
        }
    }
}
