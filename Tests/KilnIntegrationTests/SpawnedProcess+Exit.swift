import Spawning

extension SpawnedProcess {
    /// Waits for the process to exit; false when it is still running after `limit`.
    func exited(within limit: Duration) async throws -> Bool {
        let deadline = ContinuousClock.now + limit
        while isRunning && ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(20)) }
        return !isRunning
    }
}
