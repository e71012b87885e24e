public import Hummingbird
public import Logging

/// The provider simulator: an HTTP server that answers the AI providers' APIs (Anthropic Messages, OpenAI chat
/// completions, images and moderations, fal.ai's queue, Gemini) in their real wire formats, deterministically,
/// and reproduces their faults on demand. See `docs/simulator.md`.
public enum ProviderSimulator {
    /// The simulator as a Hummingbird application, to run in a `ServiceGroup`.
    /// - Parameters:
    ///   - configuration: address, stream pacing and the default fault scenario.
    ///   - logger: the server's logger.
    ///   - onListening: called with the bound port once the server listens (port 0 picks a free one).
    public static func application(
        configuration: SimulatorConfiguration, logger: Logger,
        onListening: @escaping @Sendable (Int) async -> Void = { _ in }
    ) -> some ApplicationProtocol {
        Application(
            responder: SimulatorResponder(configuration: configuration),
            configuration: .init(
                address: .hostname(configuration.host, port: configuration.port), serverName: "kiln-simulator", backlog: configuration.backlog),
            onServerRunning: { channel in await onListening(channel.localAddress?.port ?? configuration.port) },
            logger: logger)
    }
}
