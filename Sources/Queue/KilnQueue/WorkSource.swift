public import KilnCore

/// What a worker does with the queue: claim and settle attempts, keep their leases, append their events, wait for
/// work, and record what finished. ``JobQueue`` is the real one.
public protocol WorkSource: Sendable {
    /// Settles finished attempts and claims up to `count` jobs of `jobClass` in one round trip.
    func settleAndClaim(
        _ settlements: [Settlement], jobClass: JobClass, count: Int, worker: String
    ) async throws -> (settled: [SettledAttempt?], claimed: ClaimBatch)
    /// Extends the leases of running attempts; returns those lost and those whose owner asked to cancel them.
    func renew(_ leases: [(JobID, Int)]) async throws -> (lost: Set<JobID>, cancelRequested: Set<JobID>)
    /// Appends an event for a running attempt and calls `completion` with whether it was appended: false when the
    /// attempt lost its lease. Never waits: `completion` runs once the event is written, on whatever thread wrote it.
    /// `sequence` numbers the attempt's events from 1, in order; an event sent again under its number is appended once.
    func emit(
        _ type: String, data: String, job: JobID, attempt: Int, sequence: Int, progress: String?,
        completion: @escaping @Sendable (Result<Bool, any Error>) -> Void)
    /// Whether `attempt` is the job's running attempt.
    func holdsLease(_ id: JobID, attempt: Int) async throws -> Bool
    /// Blocks until work for `jobClass` or a token for `worker` arrives, or `timeout` passes; then claims up to `count`
    /// jobs in the same exchange where it can, and hands that claim to `start` as soon as it is read (on whatever thread
    /// read it). - Returns: what `start` made of it, nil when the caller must claim.
    func waitForWork<Started: Sendable>(
        _ jobClass: JobClass, worker: String, timeout: Duration, thenClaim count: Int, starting start: @escaping @Sendable (ClaimBatch) -> Started
    ) async throws -> Started?
    /// Wakes `worker`, or any idle worker of the class when nil.
    func poke(_ jobClass: JobClass, worker: String?) async throws
    /// Finished jobs that no worker has written to PostgreSQL for `age`.
    func unrecorded(olderThan age: Duration, limit: Int) async throws -> [JobSnapshot]
    /// Marks jobs as recorded in PostgreSQL.
    func markRecorded(_ jobs: [FinishedJob]) async throws
}

extension JobQueue: WorkSource {}
