import Foundation
public import KilnCore

/// A job as Redis holds it now.
public struct JobSnapshot: Sendable {
    public let id: JobID
    public let tenant: TenantID
    public let identity: Identity
    public let kind: String
    public let priority: Priority
    public let state: JobState
    public let attempt: Int
    public let tries: Int
    public let maxAttempts: Int
    /// JSON text.
    public let input: String
    /// JSON text, once succeeded.
    public let result: String?
    public let errorCode: String?
    public let errorMessage: String?
    /// The last progress reported, JSON text.
    public let progress: String?
    public let cancelRequested: Bool
    /// What the job cost its quota subject once it ended, in the queue's notation; nil when unmetered.
    let charge: String?
    /// Milliseconds since 1970 (Redis's clock).
    public let createdAtMilliseconds: Int64
    public let startedAtMilliseconds: Int64?
    public let finishedAtMilliseconds: Int64?

    /// Reads an `HGETALL` reply; nil when the hash is missing or not a job's.
    init?(fields: [String: String]) {
        guard let id = fields["id"].flatMap(JobID.init(validating:)),
            let tenant = fields["tenant"].flatMap(TenantID.init(validating:)),
            let identity = fields["identity"].flatMap(Identity.init(validating:)),
            let kind = fields["kind"],
            let priority = fields["rank"].flatMap(Int.init).flatMap(Priority.init(rank:)),
            let state = fields["state"].flatMap(JobState.init(rawValue:)),
            let input = fields["input"],
            let created = fields["created"].flatMap(Int64.init)
        else { return nil }
        self.id = id
        self.tenant = tenant
        self.identity = identity
        self.kind = kind
        self.priority = priority
        self.state = state
        self.attempt = fields["attempt"].flatMap(Int.init) ?? 0
        self.tries = fields["tries"].flatMap(Int.init) ?? 0
        self.maxAttempts = fields["max"].flatMap(Int.init) ?? 1
        self.input = input
        self.result = fields["result"]
        self.errorCode = fields["err_code"]
        self.errorMessage = fields["err_msg"]
        self.progress = fields["progress"]
        self.cancelRequested = fields["cancel"] == "1"
        self.charge = fields["q_charge"]
        self.createdAtMilliseconds = created
        self.startedAtMilliseconds = fields["started"].flatMap(Int64.init)
        self.finishedAtMilliseconds = fields["finished"].flatMap(Int64.init)
    }

    /// A job `id` just enqueued from `submission`, as the enqueue script writes it: what a fake ``SubmissionQueue``
    /// holds.
    public init(queued submission: Submission, id: JobID, createdAtMilliseconds: Int64) {
        self.id = id
        self.tenant = submission.tenant
        self.identity = submission.identity
        self.kind = submission.kind
        self.priority = submission.priority
        self.state = .queued
        self.attempt = 0
        self.tries = 0
        self.maxAttempts = submission.maxAttempts
        self.input = submission.input
        self.result = nil
        self.errorCode = nil
        self.errorMessage = nil
        self.progress = nil
        self.cancelRequested = false
        self.charge = nil
        self.createdAtMilliseconds = createdAtMilliseconds
        self.startedAtMilliseconds = nil
        self.finishedAtMilliseconds = nil
    }

    /// The job as PostgreSQL records it.
    public var record: JobRecord {
        func date(_ milliseconds: Int64?) -> Date? {
            milliseconds.map { Date(timeIntervalSince1970: Double($0) / 1000) }
        }
        return JobRecord(
            id: id, tenant: tenant, identity: identity, kind: kind, priority: priority, state: state, attempt: attempt,
            maxAttempts: maxAttempts, input: input, result: result, errorCode: errorCode, errorMessage: errorMessage,
            createdAt: Date(timeIntervalSince1970: Double(createdAtMilliseconds) / 1000), startedAt: date(startedAtMilliseconds),
            finishedAt: date(finishedAtMilliseconds))
    }

    /// The job's record with its finish time, once it has ended.
    public var finished: FinishedJob? {
        guard state.isTerminal, let finishedAtMilliseconds else { return nil }
        return FinishedJob(
            record: record, finishedAtMilliseconds: finishedAtMilliseconds,
            charge: charge.flatMap { QuotaLedgerEntry(job: id, tenant: tenant, queueNotation: $0) })
    }
}
