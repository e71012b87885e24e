public import KilnCore

/// A job as the API admits it, validated and ready to enqueue. The queue gives it its id, which names the shard it
/// goes to (``QueueShards``).
public struct Submission: Sendable {
    public var tenant: TenantID
    public var identity: Identity
    public var kind: String
    public var jobClass: JobClass
    public var priority: Priority
    /// The input as canonical JSON text.
    public var input: String
    public var maxAttempts: Int
    public var timeout: Duration
    /// Claimable only after this long.
    public var delay: Duration
    /// The identity's cap on jobs running at once.
    public var runningCap: Int
    /// The tenant's share when tenants compete for workers.
    public var weight: Int
    /// The client's `Idempotency-Key`, if it sent one.
    public var idempotencyKey: String?
    /// A digest of what was submitted: the same key with a different body is a conflict.
    public var bodyHash: String
    /// What admission checks and reserves; nil for an unmetered job (diagnostics, or a tenant without a policy).
    public var charge: QuotaCharge?

    public init(
        tenant: TenantID, identity: Identity, kind: String, jobClass: JobClass, priority: Priority,
        input: String, maxAttempts: Int, timeout: Duration, delay: Duration = .zero, runningCap: Int, weight: Int,
        idempotencyKey: String? = nil, bodyHash: String = "", charge: QuotaCharge? = nil
    ) {
        self.tenant = tenant
        self.identity = identity
        self.kind = kind
        self.jobClass = jobClass
        self.priority = priority
        self.input = input
        self.maxAttempts = maxAttempts
        self.timeout = timeout
        self.delay = delay
        self.runningCap = runningCap
        self.weight = weight
        self.idempotencyKey = idempotencyKey
        self.bodyHash = bodyHash
        self.charge = charge
    }
}

/// What an enqueue did.
public enum EnqueueOutcome: Sendable, Equatable {
    /// A new job; with the subject's use of its quota class, once this job's units are reserved, when metered.
    case created(JobID, quota: QuotaUsage?)
    /// The idempotency key had made this job already, from the same body.
    case replayed(JobID)
    /// The idempotency key had made this job from a different body.
    case conflict(JobID)
    /// Admission turned it away; nothing was written.
    case denied(QuotaDenial)
}
