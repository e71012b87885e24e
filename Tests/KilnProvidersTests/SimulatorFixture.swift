import CurlClient
import Hummingbird
import KilnProviders
import Logging
import ProviderSimulator
import Synchronization
import Testing

/// The provider simulator on a free loopback port and a client to reach it, for one test.
final class SimulatorFixture: Sendable {
    let http: HTTPClient
    let baseURL: String
    private let server: Task<Void, any Error>

    private init(http: HTTPClient, baseURL: String, server: Task<Void, any Error>) {
        self.http = http
        self.baseURL = baseURL
        self.server = server
    }

    /// Runs `body` with a fresh simulator and client, and stops both afterwards.
    static func with(
        deltaInterval: Duration = .milliseconds(1), _ body: (SimulatorFixture) async throws -> Void
    ) async throws {
        var configuration = SimulatorConfiguration()
        configuration.port = 0
        configuration.deltaInterval = deltaInterval
        let port = Mutex<Int?>(nil)
        let app = ProviderSimulator.application(configuration: configuration, logger: Logger(label: "simulator")) { bound in
            port.withLock { $0 = bound }
        }
        let server = Task { try await app.runService() }
        defer { server.cancel() }
        var bound: Int?
        for _ in 0..<500 where bound == nil {
            bound = port.withLock { $0 }
            if bound == nil { try await Task.sleep(for: .milliseconds(10)) }
        }
        let http = try HTTPClient()
        defer { http.shutdown() }
        let fixture = SimulatorFixture(http: http, baseURL: "http://127.0.0.1:\(try #require(bound, "the simulator did not start"))", server: server)
        try await body(fixture)
    }

    /// An endpoint at the simulator; `fault` is sent as the simulator's `x-kiln-fault` header.
    func endpoint(fault: String? = nil, firstByteTimeout: Duration = .seconds(10), idleTimeout: Duration = .seconds(10)) -> ProviderEndpoint {
        ProviderEndpoint(
            baseURL: self.baseURL, apiKey: "sk-test", firstByteTimeout: firstByteTimeout, idleTimeout: idleTimeout, totalTimeout: .seconds(60),
            extraHeaders: fault.map { [(name: "x-kiln-fault", value: $0)] } ?? [])
    }
}
