import Foundation
public import KilnCore
public import Logging
public import PostgresClient

/// Tenants' API keys: issued once in plaintext, stored as SHA-256 hashes, revoked by id or prefix.
public struct APIKeyStore: Sendable {
    private let pool: PostgresPool
    private let logger: Logger

    public init(pool: PostgresPool, logger: Logger? = nil) {
        self.pool = pool
        self.logger = logger ?? .disabled
    }

    /// Issues a key for `tenant`. The plaintext `key` is returned this once and stored nowhere; throws
    /// ``StoreError/Code/notFound`` when the tenant does not exist.
    public func create(tenant: TenantID) async throws -> (record: APIKeyRecord, key: String) {
        let key = APIKey.generate()
        let rows: PostgresRows
        do {
            rows = try await pool.query(
                """
                INSERT INTO api_keys (id, tenant_id, key_hash, prefix) VALUES ($1, $2, $3, $4)
                RETURNING \(APIKeyRecord.columns)
                """,
                [UUID(), tenant.rawValue, APIKey.hash(key), APIKey.displayPrefix(key)]
            )
        } catch let error as PostgresError where error.isForeignKeyViolation {
            throw StoreError(.notFound, "tenant \(tenant) does not exist")
        }
        guard let row = rows.first else { throw StoreError(.invalidRecord, "creating a key returned no row") }
        let record = try APIKeyRecord(row: row)
        logger.info("api key created", metadata: ["tenant.id": "\(tenant)", "key.prefix": "\(record.prefix)"])
        return (record, key)
    }

    /// Revokes the active key whose id or display prefix is `reference`; nil when no active key matches.
    /// Throws ``StoreError/Code/ambiguous`` when a prefix matches several active keys: give the id instead.
    public func revoke(_ reference: String) async throws -> APIKeyRecord? {
        let record = try await pool.withTransaction { connection -> APIKeyRecord? in
            let id: UUID
            if let uuid = UUID(uuidString: reference) {
                id = uuid
            } else {
                let matches = try await connection.query(
                    "SELECT id FROM api_keys WHERE prefix = $1 AND revoked_at IS NULL FOR UPDATE", [reference])
                guard matches.count <= 1 else {
                    throw StoreError(.ambiguous, "\(matches.count) active keys start with \(reference); revoke by id")
                }
                guard let match = try matches.first?.decode("id", as: UUID.self) else { return nil }
                id = match
            }
            return try await connection.query(
                """
                UPDATE api_keys SET revoked_at = now() WHERE id = $1 AND revoked_at IS NULL
                RETURNING \(APIKeyRecord.columns)
                """,
                [id]
            ).first.map(APIKeyRecord.init(row:))
        }
        if let record {
            logger.info("api key revoked", metadata: ["tenant.id": "\(record.tenant)", "key.prefix": "\(record.prefix)"])
        }
        return record
    }

    /// The tenant's keys, revoked ones included, oldest first.
    public func list(tenant: TenantID) async throws -> [APIKeyRecord] {
        try await pool.query(
            "SELECT \(APIKeyRecord.columns) FROM api_keys WHERE tenant_id = $1 ORDER BY created_at, id", [tenant.rawValue]
        ).map(APIKeyRecord.init(row:))
    }

    /// The tenant whose active key is `key`, nil for an unknown or revoked key.
    public func authenticate(key: String) async throws -> Tenant? {
        try await pool.query(
            """
            SELECT t.id, t.name, t.weight, t.running_cap, t.diagnostics, t.created_at
            FROM api_keys k JOIN tenants t ON t.id = k.tenant_id
            WHERE k.key_hash = $1 AND k.revoked_at IS NULL
            """,
            [APIKey.hash(key)]
        ).first.map(Tenant.init(row:))
    }
}
