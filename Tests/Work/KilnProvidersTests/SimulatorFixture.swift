import CurlClient
import Hummingbird
import KilnProviders
import Logging
import ProviderSimulator
import ServiceLifecycle
import Locking
import Testing

/// The provider simulator on a free loopback port and a client to reach it, for one test.
final class SimulatorFixture: Sendable {
    let http: HTTPClient
    let baseURL: String

    private init(http: HTTPClient, baseURL: String) {
        self.http = http
        self.baseURL = baseURL
    }

    /// Runs `body` with a fresh simulator and client, and stops both afterwards.
    static func with(
        deltaInterval: Duration = .milliseconds(1), _ body: (SimulatorFixture) async throws -> Void
    ) async throws {
        var configuration = SimulatorConfiguration()
        configuration.port = 0
        configuration.deltaInterval = deltaInterval
        let port = Locked<Int?>(nil)
        let logger = Logger(label: "simulator")
        let app = ProviderSimulator.application(configuration: configuration, logger: logger) { bound in
            port.withLock { $0 = bound }
        }
        let group = ServiceGroup(services: [app], gracefulShutdownSignals: [], logger: logger)
        let server = Task { try await group.run() }
        let http = try HTTPClient()
        do {
            var bound: Int?
            let deadline = ContinuousClock.now + .seconds(60)
            while bound == nil, ContinuousClock.now < deadline {
                bound = port.withLock { $0 }
                if bound == nil { try await Task.sleep(for: .milliseconds(10)) }
            }
            try await body(SimulatorFixture(http: http, baseURL: "http://127.0.0.1:\(try #require(bound, "the simulator did not start"))"))
        } catch {
            await Self.stop(group, server, http)
            throw error
        }
        await Self.stop(group, server, http)
    }

    /// Closes the client first, so no connection is left for the server to wait on, then shuts the server down.
    private static func stop(_ group: ServiceGroup, _ server: Task<Void, any Error>, _ http: HTTPClient) async {
        http.shutdown()
        await group.triggerGracefulShutdown()
        _ = try? await server.value
    }

    /// An endpoint at the simulator; `fault` is sent as the simulator's `x-kiln-fault` header.
    func endpoint(fault: String? = nil, firstByteTimeout: Duration = .seconds(10), idleTimeout: Duration = .seconds(10)) -> ProviderEndpoint {
        ProviderEndpoint(
            baseURL: self.baseURL, apiKey: "sk-test", firstByteTimeout: firstByteTimeout, idleTimeout: idleTimeout, totalTimeout: .seconds(60),
            extraHeaders: fault.map { [(name: "x-kiln-fault", value: $0)] } ?? [])
    }
}
