public import Hummingbird
public import NIOCore

/// The API's request context: Hummingbird's core storage, the peer's address for per-IP velocity, and the caller once
/// the `/v1` group's authentication middleware has established it.
public struct APIRequestContext: RequestContext, RemoteAddressRequestContext, CallerRequestContext {
    public var coreContext: CoreRequestContextStorage
    public let remoteAddress: SocketAddress?
    var caller: Caller?

    public init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        remoteAddress = source.channel.remoteAddress
    }
}
