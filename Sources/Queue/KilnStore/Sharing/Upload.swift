public import Foundation
public import KilnCore
import PostgresClient

/// A file an identity uploaded for its jobs to reference: metadata here, bytes at `path` in the object store.
public struct Upload: Sendable, Hashable {
    public var id: UUID
    public var tenant: TenantID
    /// The identity that uploaded it, the only one that may use it.
    public var identity: Identity
    public var contentType: String
    public var size: Int
    /// SHA-256 of the bytes, lowercase hex.
    public var sha256: String
    /// Where the bytes are, relative to the object store's root.
    public var path: String
    public var createdAt: Date

    public init(id: UUID, tenant: TenantID, identity: Identity, contentType: String, size: Int, sha256: String, path: String, createdAt: Date) {
        self.id = id
        self.tenant = tenant
        self.identity = identity
        self.contentType = contentType
        self.size = size
        self.sha256 = sha256
        self.path = path
        self.createdAt = createdAt
    }
}

extension Upload {
    /// The columns ``init(row:)`` reads, in an `uploads` row.
    static let columns = "id, tenant_id, identity, content_type, size_bytes, sha256, path, created_at"

    init(row: PostgresRow) throws {
        self.init(
            id: try row.decode("id", as: UUID.self),
            tenant: try row.decode("tenant_id", as: TenantID.self),
            identity: try row.decode("identity", as: Identity.self),
            contentType: try row.decode("content_type", as: String.self),
            size: try row.decode("size_bytes", as: Int.self),
            sha256: try row.decode("sha256", as: String.self),
            path: try row.decode("path", as: String.self),
            createdAt: try row.decode("created_at", as: Date.self)
        )
    }
}
