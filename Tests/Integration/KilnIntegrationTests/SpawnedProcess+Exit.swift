import Spawning

extension SpawnedProcess {
    /// Waits for the process to exit; false when it is still running after `limit`.
    func exited(within limit: Duration) async throws -> Bool {
        try await Eventually.holds(within: limit, every: .milliseconds(20)) { !isRunning }
    }
}
