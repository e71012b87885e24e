import HTTPTypes
import NIOCore
import NIOHTTP1

/// Answers a request that NIO's HTTP parser refuses with a problem, where Hummingbird would write a bare `400` with no
/// body: headers over the decoder's limits (80 KB of header lines, or 1,000 fields) are `431 headers_too_large`, a
/// header with a byte HTTP does not allow in it (a control byte in a value) is `400 invalid_header`, anything else the
/// parser cannot read is `400 malformed_request`. The connection is closed after it (the parser cannot find where the
/// next request would start), once the client has had the time to read it.
///
/// It sits right after the parser, where the parser's error arrives before Hummingbird sees it. A request read whole
/// and still being answered gets its answer first (a pipelined request behind it was refused). An error inside the
/// body of the request being read (a broken chunk) goes on to Hummingbird, which ends that exchange: its route is
/// reading that body, and only the error stops it.
final class ParseErrorAnswerHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias InboundOut = HTTPServerRequestPart
    typealias OutboundIn = HTTPServerResponsePart
    typealias OutboundOut = HTTPServerResponsePart

    /// Whether a request's head has been read and its end not yet.
    private var reading = false
    /// Whether a request's head has been read and its answer is not written to its end yet.
    private var answering = false
    /// How long the connection reads and drops what the client still sends after the answer, before it closes.
    private static let linger = TimeAmount.seconds(2)
    /// The problem to write once the answer being written ends.
    private var deferred: Answer?

    private struct Answer {
        let status: HTTPResponse.Status
        let body: ByteBuffer
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head:
            reading = true
            answering = true
        case .end: reading = false
        case .body: break
        }
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        guard case .end = unwrapOutboundIn(data) else {
            context.write(data, promise: promise)
            return
        }
        answering = false
        context.write(data, promise: promise)
        if let deferred {
            self.deferred = nil
            write(deferred, context: context)
        }
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        guard let parserError = error as? HTTPParserError, !reading, deferred == nil, let answer = Self.answer(to: parserError) else {
            context.fireErrorCaught(error)
            return
        }
        if answering {
            deferred = answer
        } else {
            answering = true
            write(answer, context: context)
        }
    }

    private func write(_ answer: Answer, context: ChannelHandlerContext) {
        var head = HTTPResponseHead(version: .http1_1, status: HTTPResponseStatus(statusCode: answer.status.code))
        head.headers.add(name: "Content-Type", value: "application/problem+json")
        head.headers.add(name: "Content-Length", value: String(answer.body.readableBytes))
        head.headers.add(name: "Connection", value: "close")
        context.write(wrapOutboundOut(.head(head)), promise: nil)
        context.write(wrapOutboundOut(.body(.byteBuffer(answer.body))), promise: nil)
        // Once the answer is out, the sending side is closed and what the client still sends (the rest of its
        // oversized headers) is read and dropped for a moment before the connection closes: closed with unread bytes,
        // the connection would be reset, and a reset can discard the answer before the client reads it. The callbacks
        // run on the channel's event loop, where the context belongs.
        let loopBound = NIOLoopBound(context, eventLoop: context.eventLoop)
        context.writeAndFlush(wrapOutboundOut(.end(nil))).whenComplete { _ in
            loopBound.value.close(mode: .output, promise: nil)
            loopBound.value.eventLoop.scheduleTask(in: Self.linger) { loopBound.value.close(promise: nil) }
        }
    }

    /// The problem that answers `error`, as bytes; nil if it cannot be encoded (then Hummingbird answers).
    private static func answer(to error: HTTPParserError) -> Answer? {
        let problem =
            switch error {
            case .headerOverflow:
                Problem(
                    .requestHeaderFieldsTooLarge, "headers_too_large",
                    "the request's headers are over 80 KB, or over 1,000 fields, or one field is over 80 KB")
            case .invalidHeaderToken:
                Problem(.badRequest, "invalid_header", "a header's name or value holds a byte HTTP does not allow (a control character)")
            default:
                Problem(.badRequest, "malformed_request", "the request is not HTTP/1.1 that Kiln can read")
            }
        guard let body = try? AnswerEncoding.bytes(of: problem) else { return nil }
        return Answer(status: problem.status, body: body)
    }
}
