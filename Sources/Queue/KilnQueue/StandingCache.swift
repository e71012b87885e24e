import Foundation
public import KilnCore
import KilnKeys
import RedisClient

/// Identities' standings (quota subject, entitled tier) cached from PostgreSQL, so admission reads them in Redis: each
/// on the shard of its identity (the subject it names may live on another).
public struct StandingCache: NamespaceRole {
    let namespace: RedisNamespace

    public init(_ namespace: RedisNamespace) {
        self.namespace = namespace
    }

    /// The identity's cached standing; nil when it is not cached.
    public func cached(tenant: TenantID, identity: Identity) async throws -> Standing? {
        let key = shards.keys(tenant: tenant, owner: identity.rawValue).standing(tenant, identity.rawValue)
        let fields = try await redis.send(["HMGET", key, "subject", "tier", "expires"]).array ?? []
        guard fields.count == 3, let subject = fields[0].string else { return nil }
        let tier = fields[1].string.flatMap { $0.isEmpty ? nil : $0 }
        let expires = fields[2].string.flatMap(Double.init).map { Date(timeIntervalSince1970: $0 / 1000) }
        return Standing(subject: subject, tier: tier, expiresAt: expires)
    }

    /// Caches the identity's standing for `ttl`; a change (an entitlement, a partner link) forgets it at once.
    public func cache(_ standing: Standing, tenant: TenantID, identity: Identity, ttl: Duration) async throws {
        let key = shards.keys(tenant: tenant, owner: identity.rawValue).standing(tenant, identity.rawValue)
        let expires = standing.expiresAt.map { String(Int64(($0.timeIntervalSince1970 * 1000).rounded())) } ?? ""
        _ = try await redis.pipeline([
            ["HSET", key, "subject", standing.subject, "tier", standing.tier ?? "", "expires", expires],
            ["PEXPIRE", key, String(ttl.milliseconds)],
        ])
    }

    /// Forgets cached standings, after their entitlements or partner links changed.
    public func forget(tenant: TenantID, identities: [Identity]) async throws {
        guard !identities.isEmpty else { return }
        // One DEL per identity: over a cluster, the identities' keys are on different shards.
        _ = try await redis.pipeline(identities.map { ["DEL", shards.keys(tenant: tenant, owner: $0.rawValue).standing(tenant, $0.rawValue)] })
    }
}
