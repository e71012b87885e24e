public import Foundation
public import KilnCore
public import Logging
public import PostgresClient

/// Partner links (Veramo): two identities that share one entitlement and one quota pool. The inviter creates a
/// code, the partner redeems it, the inviter accepts; either may unlink, after which neither may link again until
/// the cooldown has passed (so one subscription is not lent around).
public struct PartnerStore: Sendable {
    private let pool: PostgresPool
    private let logger: Logger

    public init(pool: PostgresPool, logger: Logger? = nil) {
        self.pool = pool
        self.logger = logger ?? .disabled
    }

    /// A new invitation code of `inviter`, valid for `lifetime`.
    public func invite(tenant: TenantID, inviter: String, lifetime: Duration) async throws -> (code: String, expiresAt: Date) {
        let code = String(UUID().uuidString.replacingOccurrences(of: "-", with: "").prefix(10))
        let expiresAt = Date().addingTimeInterval(Double(lifetime.components.seconds))
        _ = try await pool.execute(
            "INSERT INTO partner_invitations (code, tenant_id, inviter, expires_at) VALUES ($1, $2, $3, $4)",
            [code, tenant.rawValue, inviter, expiresAt])
        return (code, expiresAt)
    }

    /// The partner redeems a code; throws ``StoreError/Code/notFound`` for an unknown or expired code or one
    /// redeemed already, ``StoreError/Code/invalidArgument`` for one's own code.
    public func redeem(tenant: TenantID, code: String, redeemer: String) async throws {
        let rows = try await pool.query(
            """
            UPDATE partner_invitations SET redeemer = $3
            WHERE code = $1 AND tenant_id = $2 AND redeemer IS NULL AND expires_at > now() AND inviter <> $3
            RETURNING inviter
            """,
            [code, tenant.rawValue, redeemer])
        guard rows.first != nil else { throw StoreError(.notFound, "no open invitation with this code") }
    }

    /// The inviter accepts the partner who redeemed the code: the two are linked. Throws
    /// ``StoreError/Code/notFound`` when the code is not the inviter's or was not redeemed,
    /// ``StoreError/Code/alreadyExists`` when either is linked already, ``StoreError/Code/tooSoon`` within the
    /// cooldown after either's last unlink.
    /// - Returns: the partner.
    public func accept(tenant: TenantID, code: String, inviter: String, unlinkCooldown: Duration) async throws -> String {
        let partner = try await pool.withTransaction { connection -> String in
            let rows = try await connection.query(
                """
                DELETE FROM partner_invitations
                WHERE code = $1 AND tenant_id = $2 AND inviter = $3 AND redeemer IS NOT NULL AND expires_at > now()
                RETURNING redeemer
                """,
                [code, tenant.rawValue, inviter])
            guard let partner = try rows.first?.decode("redeemer", as: String.self) else {
                throw StoreError(.notFound, "no redeemed invitation with this code")
            }
            let recent = try await connection.query(
                """
                SELECT 1 FROM partner_links WHERE tenant_id = $1 AND identity IN ($2, $3)
                    AND (unlinked_at IS NULL OR unlinked_at > now() - make_interval(secs => $4))
                """,
                [tenant.rawValue, inviter, partner, Double(unlinkCooldown.components.seconds)])
            guard recent.first == nil else {
                throw StoreError(.tooSoon, "one of you is linked, or unlinked less than the cooldown ago")
            }
            let pair = UUID()
            for (identity, other) in [(inviter, partner), (partner, inviter)] {
                _ = try await connection.execute(
                    "INSERT INTO partner_links (tenant_id, identity, pair_id, partner) VALUES ($1, $2, $3, $4)",
                    [tenant.rawValue, identity, pair, other])
            }
            return partner
        }
        logger.info("partners linked", metadata: ["tenant.id": "\(tenant)"])
        return partner
    }

    /// Ends the identity's link; returns the former partner, nil when it had none.
    public func unlink(tenant: TenantID, identity: String) async throws -> String? {
        try await pool.withTransaction { connection -> String? in
            let rows = try await connection.query(
                "SELECT pair_id, partner FROM partner_links WHERE tenant_id = $1 AND identity = $2 AND unlinked_at IS NULL FOR UPDATE",
                [tenant.rawValue, identity])
            guard let row = rows.first else { return nil }
            _ = try await connection.execute(
                "UPDATE partner_links SET unlinked_at = now() WHERE tenant_id = $1 AND pair_id = $2 AND unlinked_at IS NULL",
                [tenant.rawValue, try row.decode("pair_id", as: UUID.self)])
            return try row.decode("partner", as: String.self)
        }
    }

    /// The identity's partner and since when, if it has one.
    public func partner(tenant: TenantID, identity: String) async throws -> (partner: String, linkedAt: Date)? {
        guard
            let row = try await pool.query(
                "SELECT partner, linked_at FROM partner_links WHERE tenant_id = $1 AND identity = $2 AND unlinked_at IS NULL",
                [tenant.rawValue, identity]
            ).first
        else { return nil }
        return (try row.decode("partner", as: String.self), try row.decode("linked_at", as: Date.self))
    }
}
