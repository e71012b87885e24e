public import Foundation
public import KilnCore
public import Logging
public import PostgresClient

/// Identities' uploads: bytes in the object store, metadata in PostgreSQL, visible to their owner only.
public struct UploadStore: Sendable {
    private let pool: PostgresPool
    private let objects: any ObjectBackend
    private let logger: Logger

    public init(pool: PostgresPool, objects: any ObjectBackend, logger: Logger? = nil) {
        self.pool = pool
        self.objects = objects
        self.logger = logger ?? .disabled
    }

    /// Stores the bytes at `tenants/<tenant>/uploads/<id>` under a new id, then their metadata.
    public func save(tenant: TenantID, identity: Identity, contentType: String, bytes: [UInt8]) async throws -> Upload {
        let id = UUID()
        let path = "tenants/\(tenant)/uploads/\(id.uuidString.lowercased())"
        let (size, sha256) = try await objects.write(bytes, to: path)
        let upload: Upload?
        do {
            upload = try await pool.query(
                """
                INSERT INTO uploads (id, tenant_id, identity, content_type, size_bytes, sha256, path)
                VALUES ($1, $2, $3, $4, $5, $6, $7)
                RETURNING \(Upload.columns)
                """,
                [id, tenant.rawValue, identity.rawValue, contentType, size, sha256, path]
            ).first.map(Upload.init(row:))
        } catch {
            // No row points at the bytes: remove them rather than leave an orphan.
            try? await objects.delete(path)
            throw error
        }
        guard let upload else { throw StoreError(.invalidRecord, "saving upload \(id) returned no row") }
        logger.debug("upload saved", metadata: ["tenant.id": "\(tenant)", "upload.id": "\(id)", "upload.size": "\(size)"])
        return upload
    }

    /// The upload's bytes.
    public func read(_ upload: Upload) async throws -> [UInt8] {
        try await objects.read(upload.path)
    }

    /// The upload with this id, if `identity` of `tenant` uploaded it.
    public func find(id: UUID, tenant: TenantID, identity: Identity) async throws -> Upload? {
        try await pool.query(
            "SELECT \(Upload.columns) FROM uploads WHERE id = $1 AND tenant_id = $2 AND identity = $3",
            [id, tenant.rawValue, identity.rawValue]
        ).first.map(Upload.init(row:))
    }
}
