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
    /// Waits up to `timeout` for events after `lastEventID`; empty when none came.
    func waitForEvents(of id: JobID, after lastEventID: String, timeout: Duration) async throws -> [JobEvent]
}

extension JobQueue: SubmissionQueue {}
