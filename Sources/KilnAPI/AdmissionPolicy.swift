import Foundation
import HTTPTypes
import KilnPolicy
import KilnCore
import KilnQueue
import KilnStore

/// Works out what a submission is charged under its tenant's policy: the quota class and cost of its kind for the
/// caller's tier (asserted, or from its standing), the day's limit, cooldown, running cap and refund cap.
struct AdmissionPolicy: Sendable {
    let policies: PolicySet

    /// The caller's tier: the one the tenant's server asserted, else that of the caller's active entitlement, else the
    /// one its verified purchase grants, else the lowest. A tier the policy no longer has counts as none.
    func tier(of caller: Caller, standing: Standing?, in policy: TenantPolicy, at now: Date) throws -> Tier {
        if let name = caller.assertedTier {
            guard let tier = policy.tiers[name] else {
                throw Problem(.badRequest, "unknown_tier", "Kiln-Tier names no tier of this tenant: \(name)")
            }
            return tier
        }
        // Notifications and webhooks are applied in order, so an entitlement on record is newer news than the purchase
        // the app presents (which may have been refunded since); without one, the verified purchase counts.
        let entitled = standing?.activeTier(at: now) ?? caller.purchasedTier
        return entitled.flatMap { policy.tiers[$0] } ?? policy.lowestTier
    }

    /// The charge of a job of `kind`; nil when it is not metered (a tenant without a policy, or a diagnostic kind its
    /// policy does not price). `standing` is the caller's (nil when its server asserted its tier).
    func charge(kind: String, caller: Caller, standing: Standing?, at now: Date) throws -> QuotaCharge? {
        guard let policy = policies[caller.tenant.id] else { return nil }
        let tier = try tier(of: caller, standing: standing, in: policy, at: now)
        switch policy.cost(of: kind, tier: tier) {
        case .units(let cost, let quotaClass):
            let day = policy.dayWindow(containing: now)
            return QuotaCharge(
                subject: standing?.subject ?? caller.identity.rawValue, quotaClass: quotaClass.rawValue, cost: cost,
                limit: tier.limit(for: quotaClass).units, day: day.label, resetAt: day.end, runningCap: tier.runningJobCap, device: caller.device, cooldown: tier.cooldown(for: quotaClass),
                refundCap: tier.refundCap, tier: tier.name, ip: caller.address, maxDevices: tier.maxDevicesPerDay, abuse: policy.abuse)
        case .excludedFromTier:
            var problem = Problem(.forbidden, "upgrade_required", "\(kind) is not part of the \(tier.name) tier")
            problem.extra["tier"] = .string(tier.name)
            problem.extra["upgrade_available"] = .bool(true)
            throw problem
        case .notOffered:
            if kind.hasPrefix("diag.") { return nil }
            throw Problem(.badRequest, "kind_not_offered", "this tenant does not offer \(kind)")
        }
    }

    /// Refuses, before anything is charged, what the lowest tier may not ask of a kind (`refusal`, found when the
    /// input was admitted: a premium theme from a free identity) when the caller is charged at that tier:
    /// `403 upgrade_required`, naming the field.
    func checkTierRules(_ refusal: InputError?, charge: QuotaCharge, caller: Caller) throws {
        guard let refusal, let policy = policies[caller.tenant.id], policy.tiers[charge.tier]?.isLowest == true else { return }
        var problem = Problem(.forbidden, "upgrade_required", "\(refusal.field): \(refusal.reason)")
        problem.extra["field"] = .string(refusal.field)
        problem.extra["tier"] = .string(charge.tier)
        problem.extra["upgrade_available"] = .bool(true)
        throw problem
    }

    /// Whether another tier of the tenant allows more of the class than `tier` does.
    func upgradeAvailable(from tier: String, quotaClass: String, tenant: Caller) -> Bool {
        guard let policy = policies[tenant.tenant.id], let current = policy.tiers[tier], let quotaClass = QuotaClass(rawValue: quotaClass) else {
            return false
        }
        let have = current.limit(for: quotaClass).units ?? .max
        return policy.tiers.values.contains { ($0.limit(for: quotaClass).units ?? .max) > have }
    }
}
