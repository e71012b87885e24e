public import Hummingbird
public import Logging
import NIOCore

/// `kiln api`: the HTTP front of Kiln. It authenticates, admits and enqueues in one Redis round trip, and reads
/// results; it never calls a provider and never waits on a job.
public enum APIServer {
    /// The router with every route, for the application and for tests that list the routes.
    ///
    /// Every error becomes a problem answer (``ProblemMiddleware``, inside the metrics so they count the status the
    /// client gets).
    public static func router(dependencies: APIDependencies, configuration: APIConfiguration) -> Router<APIRequestContext> {
        let router = Router(context: APIRequestContext.self)
        router.add(middleware: MetricsMiddleware())
        router.add(middleware: ProblemMiddleware())
        let authenticator = Authenticator(
            keys: dependencies.keys, cacheTTL: configuration.keyCacheTTL, policies: dependencies.policies, identities: dependencies.identities,
            clock: dependencies.clock)
        JobRoutes(dependencies: dependencies, authenticator: authenticator, configuration: configuration).register(on: router)
        UploadRoutes(dependencies: dependencies, authenticator: authenticator, configuration: configuration).register(on: router)
        QuotaRoutes(dependencies: dependencies, authenticator: authenticator).register(on: router)
        PartnerRoutes(dependencies: dependencies, authenticator: authenticator).register(on: router)
        IdentityRoutes(dependencies: dependencies, authenticator: authenticator).register(on: router)
        ShareRoutes(dependencies: dependencies, authenticator: authenticator, cache: SharePageCache(ttl: configuration.sharePageCacheTTL))
            .register(on: router)
        WebhookRoutes(dependencies: dependencies).register(on: router)
        OperationRoutes(dependencies: dependencies).register(on: router)
        return router
    }

    /// - Parameter onListening: called with the bound port once the server listens (port 0 picks a free one).
    public static func application(
        dependencies: APIDependencies, configuration: APIConfiguration, logger: Logger,
        onListening: @escaping @Sendable (Int) async -> Void = { _ in }
    ) -> some ApplicationProtocol {
        Application(
            router: router(dependencies: dependencies, configuration: configuration),
            server: .http1(configuration: .init(idleTimeout: TimeAmount(configuration.idleTimeout))),
            configuration: .init(address: .hostname(configuration.host, port: configuration.port), serverName: "kiln"),
            onServerRunning: { channel in await onListening(channel.localAddress?.port ?? configuration.port) },
            logger: logger)
    }
}
