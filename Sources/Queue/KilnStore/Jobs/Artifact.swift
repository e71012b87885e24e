public import Foundation
public import KilnCore
import PostgresClient

/// A named output of a job (an image, an MP4, a PDF): its metadata here, its bytes at `path` in the object store.
public struct Artifact: Sendable, Hashable {
    public var job: JobID
    public var tenant: TenantID
    /// Unique within the job, e.g. `video.mp4`.
    public var name: String
    /// The attempt that wrote it; a later attempt's artifact of the same name replaces it.
    public var attempt: Int
    public var contentType: String
    public var size: Int
    /// SHA-256 of the bytes, lowercase hex.
    public var sha256: String
    /// Where the bytes are, relative to the object store's root.
    public var path: String
    public var createdAt: Date

    public init(
        job: JobID, tenant: TenantID, name: String, attempt: Int, contentType: String, size: Int, sha256: String,
        path: String, createdAt: Date
    ) {
        self.job = job
        self.tenant = tenant
        self.name = name
        self.attempt = attempt
        self.contentType = contentType
        self.size = size
        self.sha256 = sha256
        self.path = path
        self.createdAt = createdAt
    }
}

extension Artifact {
    /// The columns ``init(row:)`` reads, in an `artifacts` row.
    static let columns = "job_id, tenant_id, name, attempt, content_type, size_bytes, sha256, path, created_at"

    init(row: PostgresRow) throws {
        self.init(
            job: try row.decode("job_id", as: JobID.self),
            tenant: try row.decode("tenant_id", as: TenantID.self),
            name: try row.decode("name", as: String.self),
            attempt: try row.decode("attempt", as: Int.self),
            contentType: try row.decode("content_type", as: String.self),
            size: try row.decode("size_bytes", as: Int.self),
            sha256: try row.decode("sha256", as: String.self),
            path: try row.decode("path", as: String.self),
            createdAt: try row.decode("created_at", as: Date.self)
        )
    }
}
