public import KilnCore
import PostgresClient

/// Renaming identities in PostgreSQL (`kiln identity migrate-namespaces`, docs/identity.md).
extension IdentityRecords {
    /// Every column that holds an identity (or a quota subject, an identity or a partner pool): `(table, column)`.
    private static let identityColumns = [
        ("jobs", "identity"), ("uploads", "identity"), ("shares", "identity"), ("campaigns", "identity"), ("entitlements", "identity"),
        ("quota_ledger", "subject"), ("partner_links", "identity"), ("partner_links", "partner"), ("partner_invitations", "inviter"),
        ("partner_invitations", "redeemer"),
    ]

    /// The identities of `tenant` that any row names, among those starting with one of `prefixes`.
    public func identities(tenant: TenantID, startingWith prefixes: [String]) async throws -> Set<String> {
        guard !prefixes.isEmpty else { return [] }
        // The prefixes are fixed words (`ot:`, …) without LIKE's wildcards.
        let union = Self.identityColumns.map { table, column in
            "SELECT \(column) AS name FROM \(table) WHERE tenant_id = $1 AND \(column) LIKE ANY($2::text[])"
        }.joined(separator: " UNION ")
        let rows = try await pool.query(union, [tenant.rawValue, prefixes.map { $0 + "%" }])
        return Set(try rows.map { try $0.decode("name", as: String.self) })
    }

    /// Renames `from` to `to` in every row of `tenant` that names it, in one transaction. An entitlement `to` already
    /// has is kept if it was set by the later event, else replaced by `from`'s. - Returns: how many rows changed.
    public func rename(_ from: Identity, to: Identity, tenant: TenantID) async throws -> Int {
        let values: [any PostgresEncodable] = [tenant.rawValue, from.rawValue, to.rawValue]
        return try await pool.withTransaction { connection in
            // Of two entitlements, the one set by the older event goes, as a late event never overwrites a newer one.
            var renamed = try await connection.execute(
                """
                DELETE FROM entitlements e WHERE e.tenant_id = $1 AND (
                    (e.identity = $2 AND EXISTS (
                        SELECT 1 FROM entitlements n WHERE n.tenant_id = $1 AND n.identity = $3 AND n.event_at >= e.event_at))
                    OR (e.identity = $3 AND EXISTS (
                        SELECT 1 FROM entitlements o WHERE o.tenant_id = $1 AND o.identity = $2 AND o.event_at > e.event_at)))
                """, values)
            for (table, column) in Self.identityColumns {
                renamed += try await connection.execute(
                    "UPDATE \(table) SET \(column) = $3 WHERE tenant_id = $1 AND \(column) = $2", values)
            }
            return renamed
        }
    }
}
