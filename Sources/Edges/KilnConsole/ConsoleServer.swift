public import Hummingbird
import HTTPTypes
public import Logging
import NIOCore

/// `kiln console`: the operators' web console, a service of its own on its own port (loopback by default), never
/// behind the API's public ingress. Server-rendered pages with a little JavaScript for the live overview.
public enum ConsoleServer {
    /// The router with every page, behind ``ConsoleGate``.
    public static func router(dependencies: ConsoleDependencies, configuration: ConsoleConfiguration) async throws -> Router<ConsoleRequestContext> {
        let renderer = try await ConsoleRenderer.load()
        let router = Router(context: ConsoleRequestContext.self)
        router.add(middleware: ConsoleErrorPages(renderer: renderer, dependencies: dependencies))
        router.add(middleware: ConsoleGate(dependencies: dependencies, configuration: configuration))
        router.get("/console/static/:file", use: StaticFiles.serve)
        SignInRoutes(dependencies: dependencies, configuration: configuration, renderer: renderer, throttle: SignInThrottle()).register(on: router)
        OverviewRoutes(dependencies: dependencies, configuration: configuration, renderer: renderer).register(on: router)
        ConsoleJobRoutes(dependencies: dependencies, configuration: configuration, renderer: renderer).register(on: router)
        DeadLetterRoutes(dependencies: dependencies, configuration: configuration, renderer: renderer).register(on: router)
        TenantRoutes(dependencies: dependencies, renderer: renderer, newKeys: NewKeys()).register(on: router)
        IdentityRoutes(dependencies: dependencies, renderer: renderer).register(on: router)
        BlockRoutes(dependencies: dependencies, renderer: renderer).register(on: router)
        ProviderStatusRoutes(dependencies: dependencies, renderer: renderer).register(on: router)
        AuditRoutes(dependencies: dependencies, configuration: configuration, renderer: renderer).register(on: router)
        router.get("/") { _, _ in Response.redirect(to: "/console") }
        return router
    }

    /// - Parameter onListening: called with the bound port once the server listens (port 0 picks a free one).
    public static func application(
        dependencies: ConsoleDependencies, configuration: ConsoleConfiguration, logger: Logger,
        onListening: @escaping @Sendable (Int) async -> Void = { _ in }
    ) async throws -> some ApplicationProtocol {
        Application(
            router: try await router(dependencies: dependencies, configuration: configuration),
            configuration: .init(address: .hostname(configuration.host, port: configuration.port), serverName: "kiln-console"),
            onServerRunning: { channel in await onListening(channel.localAddress?.port ?? configuration.port) },
            logger: logger)
    }
}
