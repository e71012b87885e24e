import KilnCore
import KilnQueue
import ServiceFailures
import Synchronization

/// The queue as the API sees it, in memory: what was enqueued, with idempotency keys; or a Redis that does not answer.
final class MemorySubmissionQueue: SubmissionQueue {
    private struct State {
        var jobs: [JobID: JobSnapshot] = [:]
        var keys: [String: (id: JobID, bodyHash: String)] = [:]
        var submissions: [Submission] = []
    }

    private let state = Mutex(State())
    /// Every call fails as an unreachable Redis does.
    let isDown: Bool

    init(isDown: Bool = false) {
        self.isDown = isDown
    }

    var submissions: [Submission] { state.withLock { $0.submissions } }

    func enqueue(_ submission: Submission) async throws -> EnqueueOutcome {
        try checkUp()
        return state.withLock { state in
            let key = submission.idempotencyKey.map { "\(submission.tenant):\(submission.identity):\($0)" }
            if let key, let existing = state.keys[key] {
                return existing.bodyHash == submission.bodyHash ? .replayed(existing.id) : .conflict(existing.id)
            }
            state.submissions.append(submission)
            state.jobs[submission.id] = JobSnapshot(queued: submission, createdAtMilliseconds: 1_790_000_000_000)
            if let key { state.keys[key] = (submission.id, submission.bodyHash) }
            return .created(submission.id, quota: nil)
        }
    }

    func snapshot(_ id: JobID, tenant: TenantID, identity: Identity?) async throws -> JobSnapshot? {
        try checkUp()
        return state.withLock { state in
            guard let job = state.jobs[id], job.tenant == tenant, identity == nil || job.identity == identity else { return nil }
            return job
        }
    }

    func cancel(_ id: JobID, tenant: TenantID, identity: Identity) async throws -> CancelOutcome {
        try checkUp()
        return try await snapshot(id, tenant: tenant, identity: identity) == nil ? .notFound : .cancelled
    }

    func events(of id: JobID, after lastEventID: String?, limit: Int) async throws -> [JobEvent] {
        try checkUp()
        return []
    }

    func waitForEvents(of id: JobID, after lastEventID: String, timeout: Duration) async throws -> [JobEvent] {
        try checkUp()
        return []
    }

    private func checkUp() throws {
        if isDown { throw Unreachable() }
    }

    /// What a Redis client says when the server does not answer.
    struct Unreachable: BackingServiceError {
        var service: BackingService { .redis }
        var isUnavailable: Bool { true }
    }
}
