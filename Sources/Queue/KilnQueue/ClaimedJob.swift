public import KilnCore

/// One attempt of a job, as a worker claimed it. `attempt` is the fencing token of every later write.
public struct ClaimedJob: Sendable {
    public let id: JobID
    public let attempt: Int
    public let tenant: TenantID
    public let identity: Identity
    public let kind: String
    /// The input as JSON text.
    public let input: String
    public let timeout: Duration
    /// When the job was submitted, in milliseconds since 1970 (Redis's clock).
    public let createdAtMilliseconds: Int64
    public let maxAttempts: Int
    /// Attempts spent, this one included (throttling and hand-backs spend none).
    public let tries: Int
    public let priority: Priority
    /// When this attempt was claimed, in milliseconds since 1970 (Redis's clock).
    public let startedAtMilliseconds: Int64
    /// The submitter's tier when the job was admitted, for handlers whose output depends on it (a free tier's
    /// watermark); nil for a job that was not metered.
    public let tier: String?

    public init(
        id: JobID, attempt: Int, tenant: TenantID, identity: Identity, kind: String, input: String, timeout: Duration,
        createdAtMilliseconds: Int64, maxAttempts: Int, tries: Int, priority: Priority, startedAtMilliseconds: Int64, tier: String?
    ) {
        self.id = id
        self.attempt = attempt
        self.tenant = tenant
        self.identity = identity
        self.kind = kind
        self.input = input
        self.timeout = timeout
        self.createdAtMilliseconds = createdAtMilliseconds
        self.maxAttempts = maxAttempts
        self.tries = tries
        self.priority = priority
        self.startedAtMilliseconds = startedAtMilliseconds
        self.tier = tier
    }
}

/// What one claim returned.
public struct ClaimBatch: Sendable {
    public let jobs: [ClaimedJob]
    /// How long until a delayed job falls due or a lease expires, by Redis's clock; nil when nothing is pending.
    public let nextWakeIn: Duration?

    public init(jobs: [ClaimedJob], nextWakeIn: Duration?) {
        self.jobs = jobs
        self.nextWakeIn = nextWakeIn
    }
}
