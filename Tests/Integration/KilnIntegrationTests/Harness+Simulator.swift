import Foundation
import KilnProviders
import ProviderSimulator

extension Harness {
    /// Starts the provider simulator on a free port for the test's lifetime; returns its base URL.
    func startSimulator(deltaInterval: Duration = .milliseconds(20), scenario: SimulatorScenario = .init()) async throws -> String {
        var configuration = SimulatorConfiguration()
        configuration.port = 0
        configuration.deltaInterval = deltaInterval
        configuration.scenario = scenario
        let port = PortBox()
        run(ProviderSimulator.application(configuration: configuration, logger: logger) { port.set($0) })
        return "http://127.0.0.1:\(try await port.wait())"
    }

    /// A provider configuration from JSON text, with relative paths from the repository root.
    func providerConfiguration(_ json: String) throws -> ProviderConfiguration {
        try ProviderConfiguration.load(Data(json.utf8), environment: [:], directory: TestServers.repositoryRoot)
    }
}
