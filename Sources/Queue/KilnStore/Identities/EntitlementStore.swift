public import Foundation
public import KilnCore
public import Logging
public import PostgresClient

/// Entitlements, as the stores' notifications and the subscription platforms' webhooks report them, and the
/// standing admission derives from them (with partner links).
public struct EntitlementStore: Sendable {
    private let pool: PostgresPool
    private let logger: Logger

    public init(pool: PostgresPool, logger: Logger? = nil) {
        self.pool = pool
        self.logger = logger ?? .disabled
    }

    /// Applies an event's entitlement once: false when the event (`source`, `eventID`) was applied before. An event
    /// older than the one that set the current entitlement is recorded as seen but changes nothing.
    public func apply(_ entitlement: Entitlement, eventID: String) async throws -> Bool {
        let applied = try await pool.withTransaction { connection -> Bool in
            let fresh = try await connection.execute(
                "INSERT INTO processed_events (source, event_id, tenant_id) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING",
                [entitlement.source.rawValue, eventID, entitlement.tenant.rawValue])
            guard fresh == 1 else { return false }
            _ = try await connection.execute(
                """
                INSERT INTO entitlements AS e (tenant_id, identity, tier, expires_at, source, product_id, event_at)
                VALUES ($1, $2, $3, $4, $5, $6, $7)
                ON CONFLICT (tenant_id, identity) DO UPDATE SET
                    tier = EXCLUDED.tier, expires_at = EXCLUDED.expires_at, source = EXCLUDED.source,
                    product_id = EXCLUDED.product_id, event_at = EXCLUDED.event_at, updated_at = now()
                WHERE e.event_at <= EXCLUDED.event_at
                """,
                [
                    entitlement.tenant.rawValue, entitlement.identity, entitlement.tier, entitlement.expiresAt, entitlement.source.rawValue,
                    entitlement.productID, entitlement.eventAt,
                ])
            return true
        }
        if applied {
            logger.info("entitlement applied", metadata: ["tenant.id": "\(entitlement.tenant)", "entitlement.tier": "\(entitlement.tier)"])
        }
        return applied
    }

    /// The identity's standing at `now`: its partner pair's pool if it has a partner, and the tier of the
    /// entitlement, its own or its partner's, that runs longest.
    public func standing(tenant: TenantID, identity: String, at now: Date) async throws -> Standing {
        let rows = try await pool.query(
            """
            WITH link AS (
                SELECT pair_id, partner FROM partner_links
                WHERE tenant_id = $1 AND identity = $2 AND unlinked_at IS NULL
            )
            SELECT (SELECT pair_id::text FROM link) AS pair_id, e.tier, e.expires_at
            FROM (SELECT 1) AS one
            LEFT JOIN entitlements e ON e.tenant_id = $1
                AND e.identity IN ($2, coalesce((SELECT partner FROM link), $2))
                AND (e.expires_at IS NULL OR e.expires_at > $3)
            ORDER BY e.expires_at DESC NULLS FIRST
            LIMIT 1
            """,
            [tenant.rawValue, identity, now])
        guard let row = rows.first else { return Standing(subject: identity) }
        let pair = try row.decode("pair_id", as: String?.self)
        return Standing(
            subject: pair.map { "pair:\($0)" } ?? identity, tier: try row.decode("tier", as: String?.self),
            expiresAt: try row.decode("expires_at", as: Date?.self))
    }
}
