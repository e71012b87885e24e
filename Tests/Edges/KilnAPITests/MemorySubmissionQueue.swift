import KilnCore
import KilnPolicy
import KilnQueue
import ServiceFailures
import Locking

/// The queue as the API sees it, in memory: what was enqueued, with idempotency keys and the quota's reservations
/// (``MemoryQuota``); or a Redis that does not answer.
final class MemorySubmissionQueue: SubmissionQueue {
    private struct State {
        var jobs: [JobID: JobSnapshot] = [:]
        var keys: [String: (id: JobID, bodyHash: String)] = [:]
        var submissions: [Submission] = []
        var ids: [JobID] = []
        var cancelled: Set<JobID> = []
    }

    private let state = Locked(State())
    /// The counters a metered submission reserves units in.
    let quota: MemoryQuota
    /// Every call fails as an unreachable Redis does.
    let isDown: Bool

    init(quota: MemoryQuota = MemoryQuota(), isDown: Bool = false) {
        self.quota = quota
        self.isDown = isDown
    }

    var submissions: [Submission] { state.withLock { $0.submissions } }
    /// The ids the jobs were given, in the order of ``submissions``.
    var ids: [JobID] { state.withLock { $0.ids } }

    func enqueue(_ submission: Submission) async throws -> EnqueueOutcome {
        try checkUp()
        let key = submission.idempotencyKey.map { "\(submission.tenant):\(submission.identity):\($0)" }
        if let key, let existing = state.withLock({ $0.keys[key] }) {
            return existing.bodyHash == submission.bodyHash ? .replayed(existing.id) : .conflict(existing.id)
        }
        var usage: QuotaUsage?
        if let charge = submission.charge {
            guard let reserved = quota.reserve(charge, tenant: submission.tenant) else {
                let used = try await quota.usage(
                    tenant: submission.tenant, subject: charge.subject, day: charge.day.label, limits: [charge.quotaClass.rawValue: charge.limit])
                let denied = used.usage[charge.quotaClass.rawValue] ?? QuotaUsage(limit: charge.limit, used: 0, pending: 0)
                return .denied(QuotaDenial(reason: .dailyQuotaExhausted, usage: denied, retryAfter: .zero, blockReason: nil))
            }
            usage = reserved
        }
        let id = JobID()
        state.withLock { state in
            state.submissions.append(submission)
            state.ids.append(id)
            state.jobs[id] = JobSnapshot(queued: submission, id: id, createdAtMilliseconds: 1_790_000_000_000)
            if let key { state.keys[key] = (id, submission.bodyHash) }
        }
        return .created(id, quota: usage)
    }

    func snapshot(_ id: JobID, tenant: TenantID, identity: Identity?) async throws -> JobSnapshot? {
        try checkUp()
        return state.withLock { state in
            guard let job = state.jobs[id], job.tenant == tenant, identity == nil || job.identity == identity else { return nil }
            return job
        }
    }

    /// A queued job is cancelled at once; a second cancel finds it finished.
    func cancel(_ id: JobID, tenant: TenantID, identity: Identity) async throws -> CancelOutcome {
        guard try await snapshot(id, tenant: tenant, identity: identity) != nil else { return .notFound }
        return state.withLock { state in
            state.cancelled.insert(id).inserted ? .cancelled : .alreadyFinished(.cancelled)
        }
    }

    func events(of id: JobID, after lastEventID: String?, limit: Int) async throws -> [JobEvent] {
        try checkUp()
        return []
    }

    func followEvents<Result>(of id: JobID, after: StreamID, _ body: (any JobEventFollower) async throws -> Result) async throws -> Result {
        try checkUp()
        return try await body(NoEvents())
    }

    func lastEventID(of id: JobID) async throws -> StreamID? {
        try checkUp()
        return nil
    }

    private func checkUp() throws {
        if isDown { throw Unreachable(service: .redis) }
    }
}

/// A job's events where none come: each wait runs its whole timeout.
private struct NoEvents: JobEventFollower {
    func next(timeout: Duration) async throws -> [JobEvent] {
        try await Task.sleep(for: timeout)
        return []
    }
}

/// What a client says when its server does not answer.
struct Unreachable: BackingServiceError {
    let service: BackingService
    var isUnavailable: Bool { true }
}
