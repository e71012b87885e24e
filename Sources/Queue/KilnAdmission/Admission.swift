public import Foundation
public import KilnCore
public import KilnPolicy
public import KilnQueue

/// Admission's decision, made before Redis is touched: `kind × applicant × standing × now` → what the submission is
/// charged under its tenant's policy (the quota class and cost of its kind for the applicant's tier, the day's limit,
/// cooldown, running cap and refund cap), nothing when it is not metered, or a refusal. The enqueue script then
/// applies the charge atomically (`enqueue.lua`), and answers with a `QuotaDenial` when the counters say no.
public struct Admission: Sendable {
    public let policies: PolicySet

    public init(policies: PolicySet) {
        self.policies = policies
    }

    /// The tier of `tenant` that its server names (the trusted-server mode's `Kiln-Tier`), read where the name arrives;
    /// nil for a tenant without a policy, whose jobs are not metered.
    public func assertedTier(named name: String, tenant: TenantID) throws(AdmissionRefusal) -> Tier? {
        guard let policy = policies[tenant] else { return nil }
        guard let tier = policy.tiers[name] else { throw .unknownTier(name: name) }
        return tier
    }

    /// The applicant's tier: the one the tenant's server asserted, else that of the applicant's active entitlement,
    /// else the one its verified purchase grants, else the lowest. An entitlement to a tier the policy no longer has
    /// counts as the lowest.
    public func tier(of applicant: Applicant, standing: Standing?, in policy: TenantPolicy, at now: Date) -> Tier {
        if let asserted = applicant.assertedTier { return asserted }
        // Notifications and webhooks are applied in order, so an entitlement on record is newer news than the purchase
        // the app presents (which may have been refunded since); without one, the verified purchase counts.
        if let entitled = standing?.activeTier(at: now) { return policy.tiers[entitled] ?? policy.lowestTier }
        return applicant.purchasedTier ?? policy.lowestTier
    }

    /// The charge of a job of `kind`; nil when it is not metered (a tenant without a policy, or a diagnostic kind its
    /// policy does not price). `standing` is the applicant's (nil when its server asserted its tier).
    public func charge(kind: String, applicant: Applicant, standing: Standing?, at now: Date) throws(AdmissionRefusal) -> QuotaCharge? {
        guard let policy = policies[applicant.tenant] else { return nil }
        let tier = tier(of: applicant, standing: standing, in: policy, at: now)
        switch policy.cost(of: kind, tier: tier) {
        case .units(let cost, let quotaClass):
            return QuotaCharge(
                subject: standing?.subject ?? applicant.identity.rawValue, quotaClass: quotaClass, cost: cost,
                limit: tier.limit(for: quotaClass).units, day: policy.dayWindow(containing: now), runningCap: tier.runningJobCap,
                device: applicant.device, cooldown: tier.cooldown(for: quotaClass), refundCap: tier.refundCap, tier: tier,
                ip: applicant.address, maxDevices: tier.maxDevicesPerDay, abuse: policy.abuse)
        case .excludedFromTier:
            throw .upgradeRequired(tier: tier, field: nil, reason: "\(kind) is not part of the \(tier.name) tier")
        case .notOffered:
            if kind.hasPrefix("diag.") { return nil }
            throw .kindNotOffered(kind: kind)
        }
    }

    /// Refuses, before anything is charged, what the lowest tier may not ask of a kind (`refusal`, found when the
    /// input was admitted: a premium theme from a free identity) when the applicant is charged at that tier.
    public func checkTierRules(_ refusal: InputError?, charge: QuotaCharge) throws(AdmissionRefusal) {
        guard let refusal, charge.tier.isLowest else { return }
        throw .upgradeRequired(tier: charge.tier, field: refusal.field, reason: "\(refusal.field): \(refusal.reason)")
    }

    /// Whether another tier of the tenant allows more of the class than `tier` does.
    public func upgradeAvailable(from tier: Tier, quotaClass: QuotaClass, tenant: TenantID) -> Bool {
        guard let policy = policies[tenant] else { return false }
        let have = tier.limit(for: quotaClass).units ?? .max
        return policy.tiers.values.contains { ($0.limit(for: quotaClass).units ?? .max) > have }
    }
}
