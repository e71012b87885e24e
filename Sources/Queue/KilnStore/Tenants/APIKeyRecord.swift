public import Foundation
public import KilnCore
import PostgresClient

/// What is stored of an API key: never the key, only its hash (not exposed here) and a prefix to recognise it by.
public struct APIKeyRecord: Sendable, Hashable {
    public var id: UUID
    public var tenant: TenantID
    /// The key's first characters (``APIKey/displayPrefix(_:)``), safe to show.
    public var prefix: String
    public var createdAt: Date
    /// When it stopped authenticating; nil while active.
    public var revokedAt: Date?

    public init(id: UUID, tenant: TenantID, prefix: String, createdAt: Date, revokedAt: Date?) {
        self.id = id
        self.tenant = tenant
        self.prefix = prefix
        self.createdAt = createdAt
        self.revokedAt = revokedAt
    }
}

extension APIKeyRecord {
    /// The columns ``init(row:)`` reads, in an `api_keys` row.
    static let columns = "id, tenant_id, prefix, created_at, revoked_at"

    init(row: PostgresRow) throws {
        self.init(
            id: try row.decode("id", as: UUID.self),
            tenant: try row.decode("tenant_id", as: TenantID.self),
            prefix: try row.decode("prefix", as: String.self),
            createdAt: try row.decode("created_at", as: Date.self),
            revokedAt: try row.decode("revoked_at", as: Date?.self)
        )
    }
}
