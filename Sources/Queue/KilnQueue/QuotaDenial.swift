/// Why admission turned a submission away, with what the app needs to tell its user.
public struct QuotaDenial: Sendable, Equatable {
    public enum Reason: String, Sendable, CaseIterable {
        case dailyQuotaExhausted = "daily_quota_exhausted"
        case concurrencyLimit = "concurrency_limit"
        case deviceCooldown = "device_cooldown"
        case temporarilyBlocked = "temporarily_blocked"
        case rateLimited = "rate_limited"
    }

    public let reason: Reason
    /// The class's use when it was denied (before any check that came after the one that denied it).
    public let usage: QuotaUsage
    /// When trying again may succeed; zero for an exhausted daily quota, which comes back at the charge's `resetAt`.
    public let retryAfter: Duration
    /// Why the subject is blocked (the abuse signal that tripped), for `temporarilyBlocked`.
    public let blockReason: String?

    public init(reason: Reason, usage: QuotaUsage, retryAfter: Duration, blockReason: String?) {
        self.reason = reason
        self.usage = usage
        self.retryAfter = retryAfter
        self.blockReason = blockReason
    }
}
