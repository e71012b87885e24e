public import KilnPolicy

/// What admission checks and reserves for a metered submission, worked out from the tenant's policy before Redis is
/// touched; the enqueue script applies it in the same atomic call that enqueues the job.
public struct QuotaCharge: Sendable {
    /// Whose pool pays: the identity, or the pair two partners share.
    public var subject: String
    public var quotaClass: QuotaClass
    public var cost: Int
    /// The class's limit for the day; nil when unlimited.
    public var limit: Int?
    /// The quota day in the tenant's reset time zone: its label names the counters, its end is when the limits reset.
    public var day: QuotaDay
    /// The most unfinished jobs the subject may have.
    public var runningCap: Int
    /// The device submitting, whose cooldown applies; nil when the app sent none.
    public var device: String?
    public var cooldown: Duration
    /// Units a subject gets back a day for jobs that did not succeed; beyond it, they are charged.
    public var refundCap: Int
    /// The tier at admission: the job keeps it even if the subject's tier changes while it waits or runs.
    public var tier: Tier
    /// The client's IP address, for its velocity; nil when unknown.
    public var ip: String?
    /// Distinct devices the subject may use in a quota day (the tier's), before abuse detection steps in.
    public var maxDevices: Int
    /// The tenant's abuse thresholds.
    public var abuse: AbuseThresholds

    public init(
        subject: String, quotaClass: QuotaClass, cost: Int, limit: Int?, day: QuotaDay, runningCap: Int,
        device: String?, cooldown: Duration, refundCap: Int, tier: Tier, ip: String?, maxDevices: Int, abuse: AbuseThresholds
    ) {
        self.subject = subject
        self.quotaClass = quotaClass
        self.cost = cost
        self.limit = limit
        self.day = day
        self.runningCap = runningCap
        self.device = device
        self.cooldown = cooldown
        self.refundCap = refundCap
        self.tier = tier
        self.ip = ip
        self.maxDevices = maxDevices
        self.abuse = abuse
    }

}
