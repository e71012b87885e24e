import ArgumentParser
import Foundation
import KilnCommandLine
import Logging
import ProviderSimulator
import ServiceLifecycle
import UnixSignals

struct SimulatorCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "simulator", abstract: "Serve the AI providers' APIs offline, with faults on demand (docs/simulator.md).")

    @Option(help: "Address to bind.")
    var host = "127.0.0.1"

    @Option(help: "Port to listen on.")
    var port = 8790

    @Option(help: "A scenario JSON file: fault rules applied to requests that carry no fault of their own.")
    var scenario: String?

    @Option(help: "Pause between streamed deltas, in milliseconds.")
    var deltaIntervalMs = 10

    func run() async throws {
        var configuration = SimulatorConfiguration(host: host, port: port, deltaInterval: .milliseconds(deltaIntervalMs))
        if let scenario {
            do {
                configuration.scenario = try SimulatorScenario(contentsOf: URL(fileURLWithPath: scenario))
            } catch {
                throw ValidationError("\(scenario): \(error)")
            }
        }
        let logger = Bootstrap.logger("kiln.simulator")
        let app = ProviderSimulator.application(configuration: configuration, logger: logger) { port in
            logger.info("simulator listening", metadata: ["simulator.port": "\(port)"])
        }
        let group = ServiceGroup(services: [app], gracefulShutdownSignals: [.sigterm, .sigint], logger: logger)
        try await group.run()
    }
}
