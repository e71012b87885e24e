import CurlClient
import Foundation
import Glibc
import Spawning
import Testing

/// A `kiln api` process, for tests that read what only the program sets up (its Prometheus metrics, its start-up),
/// with its log in a file of its own.
final class APIProcess {
    let port: Int
    let log = FileManager.default.temporaryDirectory.appendingPathComponent("kiln-api-\(UUID().uuidString.prefix(8)).log")
    private let process: SpawnedProcess

    /// Where it listens: 127.0.0.1 here, or `host`'s address.
    let address: String

    /// Starts `kiln api` with `command`, the program and its connection flags (``Harness/kilnCommand(_:program:)``
    /// makes them for the harness's own servers), here or on `host`, with the repository's `deploy/policies.json` or
    /// `policies`, and `environment` added to ours.
    init(_ command: [String], on host: HostNetwork.Host? = nil, policies: URL? = nil, environment: [String: String] = [:]) throws {
        port = try TestPorts.reserve()
        address = host?.address ?? "127.0.0.1"
        let descriptor = open(log.path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        guard descriptor >= 0 else { throw TestFailure("cannot create \(log.path)") }
        defer { close(descriptor) }
        let policies = (policies ?? TestServers.repositoryRoot.appendingPathComponent("deploy/policies.json")).path
        let api = [command[0], "api", "--host", address, "--port", String(port), "--policies", policies] + command.dropFirst()
        process = try SpawnedProcess(
            host?.command(api) ?? api, environment: ProcessInfo.processInfo.environment.merging(environment) { $1 }, stdout: .null,
            stderr: .descriptor(descriptor))
    }

    /// Its address, as the hosts of its network reach it (this one, when it runs here).
    var url: String { "http://\(address):\(port)" }

    /// What the process has logged so far.
    var logText: String { (try? String(contentsOf: log, encoding: .utf8)) ?? "" }

    var isRunning: Bool { process.isRunning }

    func kill(_ signal: Int32) {
        process.signal(signal)
    }

    /// Waits for the process to exit; false when it is still running after `limit`.
    func waitForExit(within limit: Duration) async throws -> Bool {
        try await process.exited(within: limit)
    }

    /// How the process ended, waiting for it to.
    func termination() async -> SpawnedProcess.Termination {
        await process.exit()
    }

    /// The status `path` answers with, or nil while nothing listens.
    func status(_ path: String, http: HTTPClient) async -> Int? {
        try? await http.execute(HTTPRequest(method: "GET", url: url + path), timeout: .seconds(5)).status
    }

    /// Waits until `/readyz` answers 200; false if it has not within `limit`.
    func waitUntilReady(within limit: Duration, http: HTTPClient) async throws -> Bool {
        let deadline = ContinuousClock.now + limit
        while ContinuousClock.now < deadline {
            if await status("/readyz", http: http) == 200 { return true }
            try await Task.sleep(for: .milliseconds(100))
        }
        return false
    }

    deinit {
        try? FileManager.default.removeItem(at: log)
    }
}

extension Harness {
    /// A `kiln api` process on the harness's servers and namespace, started and answering `/readyz`.
    func readyAPI() async throws -> APIProcess {
        let api = try APIProcess(try kilnCommand([]))
        try #require(try await api.waitUntilReady(within: .seconds(60), http: http))
        return api
    }
}
