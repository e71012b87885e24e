import Foundation
import KilnStore
import Spawning
import Testing

/// A `kiln worker` process on the harness's namespace and schema, for tests that kill or stop it.
final class WorkerProcess {
    private let process: SpawnedProcess
    let id: String

    init(_ harness: Harness, grace: Double = 10) throws {
        id = "process-\(UUID().uuidString.prefix(6))"
        process = try SpawnedProcess(
            try harness.kilnCommand([
                "worker", "--providers", TestServers.repositoryRoot.appendingPathComponent("deploy/providers.json").path,
                "--shutdown-grace", String(grace), "--io", "4", "--cpu", "0",
            ]), stdout: .null, stderr: .null)
    }

    func kill(_ signal: Int32) {
        process.signal(signal)
    }

    /// Waits for the process to exit; false when it is still running after `limit`.
    func waitForExit(within limit: Duration) async throws -> Bool {
        let deadline = ContinuousClock.now + limit
        while process.isRunning && ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(20)) }
        return !process.isRunning
    }
}
