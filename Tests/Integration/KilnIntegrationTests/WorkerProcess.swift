import Foundation
import Glibc
import KilnStore
import Spawning
import Testing

/// A `kiln worker` process on the harness's namespace and schema (on the test servers, or the Redis at `redisURL` and
/// the PostgreSQL at `databaseURL`), here or on `host`, for tests that kill, stop or cut it off, with its log in a file
/// of its own.
final class WorkerProcess {
    private let process: SpawnedProcess
    let id: String
    let log = FileManager.default.temporaryDirectory.appendingPathComponent("kiln-worker-\(UUID().uuidString.prefix(8)).log")

    /// - Parameter metricsPort: where it serves its Prometheus metrics; none unless given.
    init(
        _ harness: Harness, grace: Double = 10, redisURL: String? = nil, databaseURL: String? = nil, on host: HostNetwork.Host? = nil,
        io: Int = 4, metricsPort: Int? = nil
    ) throws {
        id = "process-\(UUID().uuidString.prefix(6))"
        let descriptor = open(log.path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        guard descriptor >= 0 else { throw TestFailure("cannot create \(log.path)") }
        defer { close(descriptor) }
        let command = try harness.kilnCommand(
            [
                "worker", "--providers", TestServers.repositoryRoot.appendingPathComponent("deploy/providers.json").path,
                "--shutdown-grace", String(grace), "--io", String(io), "--cpu", "0",
            ] + (metricsPort.map { ["--metrics-port", String($0)] } ?? []), redisURL: redisURL, databaseURL: databaseURL)
        process = try SpawnedProcess(host?.command(command) ?? command, stdout: .null, stderr: .descriptor(descriptor))
    }

    /// What the process has logged so far.
    var logText: String { (try? String(contentsOf: log, encoding: .utf8)) ?? "" }

    var isRunning: Bool { process.isRunning }

    var pid: Int32 { process.pid }

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

    deinit {
        try? FileManager.default.removeItem(at: log)
    }
}
