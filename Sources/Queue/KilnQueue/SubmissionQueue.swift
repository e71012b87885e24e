public import KilnCore

/// What the API does with the queue: submit, read, cancel and follow jobs. ``JobQueue`` is the real one.
public protocol SubmissionQueue: Sendable {
    /// Admits and enqueues a job, or finds the one its idempotency key already made (a replay is not charged again).
    func enqueue(_ submission: Submission) async throws -> EnqueueOutcome
    /// The job, if it belongs to this tenant and identity (any identity of the tenant when nil).
    func snapshot(_ id: JobID, tenant: TenantID, identity: Identity?) async throws -> JobSnapshot?
    /// Cancels the job of this tenant and identity.
    func cancel(_ id: JobID, tenant: TenantID, identity: Identity) async throws -> CancelOutcome
    /// Events after `lastEventID` (from the start when nil), oldest first, at most `limit`.
    func events(of id: JobID, after lastEventID: String?, limit: Int) async throws -> [JobEvent]
    /// Follows the job's events after `after` for as long as `body` runs.
    func followEvents<Result>(of id: JobID, after: StreamID, _ body: (any JobEventFollower) async throws -> Result) async throws -> Result
    /// The id of the job's last event; nil when its stream is gone or the job is not here.
    func lastEventID(of id: JobID) async throws -> StreamID?
}

extension JobQueue: SubmissionQueue {}
