/// What a metered job finally cost its quota subject: one row of the quota ledger.
public struct QuotaLedgerEntry: Sendable, Hashable {
    public enum Outcome: String, Sendable {
        /// Charged: the job succeeded, or failed past the subject's refund cap.
        case committed
        /// Given back.
        case released
    }

    public var job: JobID
    public var tenant: TenantID
    public var subject: String
    /// The quota day the units were reserved on (`yyyyMMdd` in the tenant's reset time zone).
    public var day: String
    public var quotaClass: String
    public var units: Int
    public var outcome: Outcome

    public init(job: JobID, tenant: TenantID, subject: String, day: String, quotaClass: String, units: Int, outcome: Outcome) {
        self.job = job
        self.tenant = tenant
        self.subject = subject
        self.day = day
        self.quotaClass = quotaClass
        self.units = units
        self.outcome = outcome
    }

    /// Reads the queue's notation, `outcome|day|class|units|subject` (the subject last: it may hold `|`).
    public init?(job: JobID, tenant: TenantID, queueNotation text: String) {
        let parts = text.split(separator: "|", maxSplits: 4, omittingEmptySubsequences: false)
        guard parts.count == 5, let outcome = Outcome(rawValue: String(parts[0])), let units = Int(parts[3]) else { return nil }
        self.init(
            job: job, tenant: tenant, subject: String(parts[4]), day: String(parts[1]), quotaClass: String(parts[2]), units: units,
            outcome: outcome)
    }
}
