import Foundation
import KilnCore
import KilnQueue
import KilnStore

/// Identities' standings (quota subject and entitled tier) for admission: from the cache in Redis, filled from
/// PostgreSQL on a miss. Webhooks and partner links forget the cached standings they change, so an upgrade applies
/// to the next submission.
struct Standings: Sendable {
    let queue: JobQueue
    let entitlements: EntitlementStore
    /// How long a standing stays cached; a change forgets it sooner.
    static let cacheTTL: Duration = .seconds(600)

    func standing(of caller: Caller, at now: Date) async throws -> Standing {
        let tenant = caller.tenant.id
        let identity = caller.identity.rawValue
        if let cached = try await queue.cachedStanding(tenant: tenant, identity: identity) { return cached }
        let standing = try await entitlements.standing(tenant: tenant, identity: identity, at: now)
        try await queue.cacheStanding(standing, tenant: tenant, identity: identity, ttl: Self.cacheTTL)
        return standing
    }
}
