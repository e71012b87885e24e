/// Where a worker publishes its heartbeat: ``FleetRegistry`` is the real one.
public protocol HeartbeatSink: Sendable {
    /// Publishes `heartbeat` until `expiresAfter` passes without another, and counts `ended`.
    @discardableResult
    func beat(_ heartbeat: WorkerHeartbeat, ended: OutcomeTally, expiresAfter: Duration) async throws -> Int64
    /// Removes a worker that stops gracefully.
    func leave(_ worker: String) async throws
}
