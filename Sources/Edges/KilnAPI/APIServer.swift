public import Hummingbird
public import Logging
import NIOCore

/// `kiln api`: the HTTP front of Kiln. It authenticates, admits and enqueues in one Redis round trip, and reads
/// results; it never calls a provider and never waits on a job.
public enum APIServer {
    /// The router with every route, for the application and for tests that list the routes.
    ///
    /// Every error becomes a problem answer (``ProblemMiddleware``, inside the metrics, ``RequestMetricsMiddleware``, so
    /// they count the status the client gets). The `/v1` routes that act for an end user sit in one group behind
    /// ``AuthenticationMiddleware``; the platforms' webhooks, in `/v1` too, authenticate with their own secrets, and the
    /// operations and the web reader need no credentials. A path asked with a method it does not take is `405` with
    /// `Allow` (``MethodNotAllowedMiddleware``).
    public static func router(dependencies: APIDependencies, configuration: APIConfiguration) -> Router<APIRequestContext> {
        let router = Router(context: APIRequestContext.self)
        router.add(middleware: RequestMetricsMiddleware())
        router.add(middleware: ProblemMiddleware())
        let authenticator = Authenticator(
            keys: dependencies.keys, cacheTTL: configuration.keyCacheTTL, policies: dependencies.policies, identities: dependencies.identities,
            clock: dependencies.clock)
        let v1 = router.group("v1")
        WebhookRoutes(dependencies: dependencies).register(on: v1)
        let authenticated = v1.group().add(middleware: AuthenticationMiddleware(authenticator: authenticator))
        let followers = FollowerCaps(configuration.followers)
        JobRoutes(dependencies: dependencies, configuration: configuration, followers: followers).register(on: authenticated)
        UploadRoutes(dependencies: dependencies, configuration: configuration).register(on: authenticated)
        QuotaRoutes(dependencies: dependencies).register(on: authenticated)
        PartnerRoutes(dependencies: dependencies).register(on: authenticated)
        CampaignRoutes(dependencies: dependencies, configuration: configuration).register(on: authenticated)
        IdentityRoutes(dependencies: dependencies, configuration: configuration).register(on: authenticated)
        ShareRoutes(dependencies: dependencies, cache: SharePageCache(ttl: configuration.sharePageCacheTTL))
            .register(reader: router, v1: authenticated)
        OperationRoutes(dependencies: dependencies, configuration: configuration).register(on: router)
        MCPRoutes(dependencies: dependencies, configuration: configuration, followers: followers).register(on: router)
        // After every route: a middleware added now wraps only the answer to a request no route takes.
        router.add(middleware: MethodNotAllowedMiddleware(routes: router.routes))
        return router
    }

    /// - Parameter onListening: called with the bound port once the server listens (port 0 picks a free one).
    public static func application(
        dependencies: APIDependencies, configuration: APIConfiguration, logger: Logger,
        onListening: @escaping @Sendable (Int) async -> Void = { _ in }
    ) -> some ApplicationProtocol {
        Application(
            router: router(dependencies: dependencies, configuration: configuration),
            // What NIO's HTTP parser refuses is answered with a problem too (``ParseErrorAnswerHandler``), and a connection
            // an answer must end is closed (``ConnectionPersistenceHandler``).
            server: .http1(
                configuration: .init(additionalChannelHandlers: [ParserNeighboursInstaller()], idleTimeout: TimeAmount(configuration.idleTimeout))),
            configuration: .init(address: .hostname(configuration.host, port: configuration.port), serverName: "kiln"),
            onServerRunning: { channel in await onListening(channel.localAddress?.port ?? configuration.port) },
            logger: logger)
    }
}
