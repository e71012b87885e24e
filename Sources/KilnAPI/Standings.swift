import Foundation
import KilnCore
import KilnPolicy
import KilnQueue
import KilnStore

/// Identities' standings (quota subject and entitled tier) for admission: from the cache in Redis, filled from
/// PostgreSQL on a miss. Webhooks and partner links forget the cached standings they change, so an upgrade applies
/// to the next submission.
struct Standings: Sendable {
    let cache: StandingCache
    let entitlements: EntitlementStore
    let policies: PolicySet
    /// How long a standing stays cached; a change forgets it sooner.
    static let cacheTTL: Duration = .seconds(600)

    init(_ dependencies: APIDependencies) {
        cache = dependencies.standings
        entitlements = dependencies.entitlements
        policies = dependencies.policies
    }

    /// The caller's standing; nil when none applies: its tenant is not metered, or its tier was asserted (by the
    /// tenant's server, or as an anonymous device's lowest), which is final and leaves the pool its identity's own.
    func standing(of caller: Caller, at now: Date) async throws -> Standing? {
        guard policies[caller.tenant.id] != nil, caller.assertedTier == nil else { return nil }
        let tenant = caller.tenant.id
        let identity = caller.identity.rawValue
        if let cached = try await cache.cached(tenant: tenant, identity: identity) { return cached }
        let standing = try await entitlements.standing(tenant: tenant, identity: identity, at: now)
        try await cache.cache(standing, tenant: tenant, identity: identity, ttl: Self.cacheTTL)
        return standing
    }
}
