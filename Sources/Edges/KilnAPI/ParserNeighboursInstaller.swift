import NIOCore
import NIOHTTP1

/// Puts Kiln's HTTP/1 handlers right after the HTTP parser of each connection, where a request's version, method and
/// the parser's errors are still known: ``ParseErrorAnswerHandler``, then ``ConnectionPersistenceHandler``. Hummingbird
/// adds its extra handlers after its conversion to Swift HTTP Types, past that point, so this one, added there, places
/// them where they belong and removes itself (a handler must be inbound or outbound; it reads nothing, so its
/// `InboundIn` is just `NIOAny`).
final class ParserNeighboursInstaller: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = NIOAny

    func handlerAdded(context: ChannelHandlerContext) {
        let pipeline = context.pipeline.syncOperations
        // Hummingbird's HTTP/1 pipeline always has the parser; were it missing, Hummingbird's own answers stay.
        if let parser = try? pipeline.context(handlerType: ByteToMessageHandler<HTTPRequestDecoder>.self) {
            try? pipeline.addHandlers([ParseErrorAnswerHandler(), ConnectionPersistenceHandler()], position: .after(parser.handler))
        }
        // Left in place, it would pass every event of the connection on, for nothing.
        pipeline.removeHandler(context: context, promise: nil)
    }
}
