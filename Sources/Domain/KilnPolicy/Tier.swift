/// A level of service inside one tenant (free, pro, premium): what an identity at that level may do each day.
public struct Tier: Sendable, Equatable {
    /// The tier's key in the policy file, e.g. `pro`; this is what answers and the ledger call it.
    public let name: String
    /// The tier of an identity that bought nothing, and the only one an anonymous device gets.
    public let isLowest: Bool
    /// Units per quota day for each class; a class that is absent is not available to the tier.
    public let daily: [QuotaClass: DailyLimit]
    /// How long one device waits between two admitted jobs of a class; a class that is absent has no cooldown.
    public let deviceCooldowns: [QuotaClass: Duration]
    /// Jobs one identity may have queued or running at once, at least 1.
    public let runningJobCap: Int
    /// Units per identity per quota day that failed, cancelled or filtered jobs may give back; past it, failures
    /// are charged, so failing on purpose does not buy free compute.
    public let refundCap: Int
    /// Distinct devices one identity may use in one quota day before abuse detection steps in.
    public let maxDevicesPerDay: Int
    /// App Store (and RevenueCat) product ids whose purchase grants this tier.
    public let products: Set<String>
    /// RevenueCat entitlement ids and Adapty access levels that grant this tier.
    public let entitlements: Set<String>
    /// Kinds the tenant offers that this tier may not submit.
    public let excludedKinds: Set<String>

    /// The tier's daily limit for `quotaClass`: none at all when the tier does not list the class.
    public func limit(for quotaClass: QuotaClass) -> DailyLimit {
        daily[quotaClass] ?? .units(0)
    }

    /// The per-device cooldown of `quotaClass`, zero when the tier sets none.
    public func cooldown(for quotaClass: QuotaClass) -> Duration {
        deviceCooldowns[quotaClass] ?? .zero
    }
}
