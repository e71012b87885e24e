public import KilnCore
import KilnKeys
import RedisClient

/// How often identities may be erased through the API (docs/privacy.md): each erasure walks the namespace's keys, so
/// an identity whose erasure completed waits before the next, and a tenant's erasures are counted per minute. Kept on
/// the control shard, so every API node counts alike.
public struct ErasureLimits: NamespaceRole {
    let namespace: RedisNamespace

    init(_ namespace: RedisNamespace) {
        self.namespace = namespace
    }

    /// Whether an erasure of the identity may go now, counting it against its tenant's minute when it may.
    /// - Returns: nil when it may; else how long until it may.
    public func admit(identity: Identity, tenant: TenantID, perTenantPerMinute: Int) async throws -> Duration? {
        let keys = shards.control
        if let quiet = try await redis.send(["PTTL", keys.erased(tenant, identity)]).int, quiet > 0 { return .milliseconds(quiet) }
        let counted = try await redis.pipeline([
            ["INCR", keys.erasures(tenant)], ["PEXPIRE", keys.erasures(tenant), "60000", "NX"], ["PTTL", keys.erasures(tenant)],
        ])
        guard let count = counted[0].int, count > perTenantPerMinute else { return nil }
        return .milliseconds(max(counted[2].int ?? 60_000, 1))
    }

    /// Notes that the identity's erasure completed: another is refused for `quiet`.
    public func completed(identity: Identity, tenant: TenantID, quiet: Duration) async throws {
        try await redis.send(["SET", shards.control.erased(tenant, identity), "1", "PX", String(max(quiet.milliseconds, 1))])
    }
}
