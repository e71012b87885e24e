public import Foundation
public import KilnCore
public import KilnPolicy

/// Identities' standings (quota subject and entitled tier) for admission: from the cache in Redis, filled from
/// PostgreSQL on a miss. Webhooks and partner links forget the cached standings they change, so an upgrade applies
/// to the next submission.
public struct StandingLookup: Sendable {
    private let cache: any StandingCaching
    private let entitlements: any EntitlementStandings
    private let policies: PolicySet
    /// How long a standing stays cached; a change forgets it sooner.
    static let cacheTTL: Duration = .seconds(600)

    public init(cache: any StandingCaching, entitlements: any EntitlementStandings, policies: PolicySet) {
        self.cache = cache
        self.entitlements = entitlements
        self.policies = policies
    }

    /// The applicant's standing; nil when none applies: its tenant is not metered, or its tier was asserted (by the
    /// tenant's server, or as an anonymous device's lowest), which is final and leaves the pool its identity's own.
    public func standing(of applicant: Applicant, at now: Date) async throws -> Standing? {
        guard policies[applicant.tenant] != nil, applicant.assertedTier == nil else { return nil }
        let tenant = applicant.tenant
        let identity = applicant.identity
        if let cached = try await cache.cached(tenant: tenant, identity: identity) { return cached }
        let standing = try await entitlements.standing(tenant: tenant, identity: identity, at: now)
        try await cache.cache(standing, tenant: tenant, identity: identity, ttl: Self.cacheTTL)
        return standing
    }
}
