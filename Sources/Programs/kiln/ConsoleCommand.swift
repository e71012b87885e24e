import ArgumentParser
import Foundation
import KilnCommandLine
import KilnConsole
import ServiceLifecycle
import UnixSignals

struct ConsoleCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "console", abstract: "Serve the operators' web console (loopback by default; see docs/console.md).")

    @OptionGroup var connections: ConnectionOptions

    @Option(help: "Address to bind. Keep it off any public ingress.")
    var host = "127.0.0.1"

    @Option(help: "Port to listen on (env KILN_CONSOLE_PORT).")
    var port: Int = Int(ProcessInfo.processInfo.environment["KILN_CONSOLE_PORT"] ?? "") ?? 8795

    @Option(help: "The address operators open; an https one makes the session cookie Secure (env KILN_CONSOLE_URL).")
    var publicURL: String?

    @Option(help: "Hours a sign-in lasts.")
    var sessionHours = 12

    @Option(help: "Behind a proxy you trust, the header that carries the client's address (e.g. X-Forwarded-For).")
    var clientAddressHeader: String?

    @OptionGroup var policyOptions: PolicyOptions

    func run() async throws {
        guard (1...168).contains(sessionHours) else { throw ValidationError("--session-hours must be between 1 and 168") }
        let policies = try policyOptions.load()
        let logger = Bootstrap.logger("kiln.console")
        let runtime = try Runtime(connections)
        try await runtime.waitForServices(logger: logger)
        var configuration = ConsoleConfiguration()
        configuration.host = host
        configuration.port = port
        configuration.publicURL = publicURL ?? ProcessInfo.processInfo.environment["KILN_CONSOLE_URL"] ?? "http://\(host):\(port)"
        configuration.sessionLifetime = .seconds(sessionHours * 3600)
        configuration.clientAddressHeader = clientAddressHeader
        let dependencies = ConsoleDependencies(
            namespace: runtime.namespace, database: runtime.database, objects: runtime.objects, policies: policies)
        let app = try await ConsoleServer.application(dependencies: dependencies, configuration: configuration, logger: logger)
        let group = ServiceGroup(services: runtime.services + [app], gracefulShutdownSignals: [.sigterm, .sigint], logger: logger)
        try await group.run()
    }
}
