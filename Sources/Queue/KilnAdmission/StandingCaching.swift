public import KilnCore
public import KilnQueue

/// The standings cached in Redis, as admission reads them and as the routes that change a standing (a webhook, a
/// partner link) forget them. ``StandingCache`` is the real one.
public protocol StandingCaching: Sendable {
    /// The identity's cached standing; nil when it is not cached.
    func cached(tenant: TenantID, identity: Identity) async throws -> Standing?
    /// Caches the identity's standing for `ttl`.
    func cache(_ standing: Standing, tenant: TenantID, identity: Identity, ttl: Duration) async throws
    /// Forgets cached standings, after their entitlements or partner links changed.
    func forget(tenant: TenantID, identities: [Identity]) async throws
}

extension StandingCache: StandingCaching {}
