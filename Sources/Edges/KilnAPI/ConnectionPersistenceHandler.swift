import NIOCore
import NIOHTTP1

/// Closes a connection after an answer that must end it, which Hummingbird, knowing neither a request's HTTP version
/// nor its method's framing, would keep open to the idle timeout (RFC 9112 §9.3, §9.6):
///
/// - a request that does not ask to persist: HTTP/1.0 without `Connection: keep-alive`, or `Connection: close`
///   in any letter case or among other options;
/// - `CONNECT`, whose answer NIO's encoder sends with no length and no body, as if it opened a tunnel: the connection's
///   close ends that answer (Kiln opens no tunnels, so it is a problem whose body NIO drops; its `Content-Type` goes
///   with it);
/// - an HTTP/1.0 request that asks to persist, answered without a `Content-Length` (a stream): HTTP/1.0 has no chunks,
///   so the close ends the body.
///
/// An HTTP/1.0 request is answered in HTTP/1.0, which NIO's encoder never chunks; one that persists is told so with
/// `Connection: keep-alive`. Every answer that ends its connection says `Connection: close`. It sits right after the
/// HTTP parser, where a request's version and method are still known; requests a client pipelines are answered in
/// order, so their facts queue in that order.
final class ConnectionPersistenceHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias InboundOut = HTTPServerRequestPart
    typealias OutboundIn = HTTPServerResponsePart
    typealias OutboundOut = HTTPServerResponsePart

    /// What the answer to a request read and not yet answered must do.
    private struct Request {
        let version: HTTPVersion
        let persists: Bool
        let isConnect: Bool
    }

    private var unanswered: [Request] = []
    /// Whether the answer being written ends its connection, once written.
    private var closesAfterAnswer = false

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard case .head(var head) = unwrapInboundIn(data) else {
            context.fireChannelRead(data)
            return
        }
        let request = Request(version: head.version, persists: head.isKeepAlive && head.method != .CONNECT, isConnect: head.method == .CONNECT)
        unanswered.append(request)
        // Hummingbird reads no further request and closes its side once it has answered one that says `close`.
        if !request.persists { head.headers.replaceOrAdd(name: "connection", value: "close") }
        context.fireChannelRead(wrapInboundOut(.head(head)))
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        switch unwrapOutboundIn(data) {
        case .head(var head) where !unanswered.isEmpty:
            let request = unanswered.removeFirst()
            if request.isConnect { head.headers.remove(name: "content-type") }
            closesAfterAnswer = !request.persists
            if request.version == .http1_0 {
                head.version = .http1_0
                closesAfterAnswer = closesAfterAnswer || !head.headers.contains(name: "content-length")
                if !closesAfterAnswer { head.headers.replaceOrAdd(name: "connection", value: "keep-alive") }
            }
            if closesAfterAnswer { head.headers.replaceOrAdd(name: "connection", value: "close") }
            context.write(wrapOutboundOut(.head(head)), promise: promise)
        case .end where closesAfterAnswer:
            closesAfterAnswer = false
            // The answer is out: the sending side closes, which ends a body that had no length; the client then closes
            // its side, and the connection is gone.
            let loopBound = NIOLoopBound(context, eventLoop: context.eventLoop)
            context.writeAndFlush(data).whenComplete { result in
                promise?.completeWith(result)
                loopBound.value.close(mode: .output, promise: nil)
            }
        default:
            context.write(data, promise: promise)
        }
    }
}
