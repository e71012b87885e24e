public import KilnCore
public import Logging
public import PostgresClient

/// Jobs' artifacts: bytes in the object store, metadata in PostgreSQL, fenced by attempt like the job record.
public struct ArtifactStore: Sendable {
    private let pool: PostgresPool
    private let objects: any ObjectBackend
    private let logger: Logger

    public init(pool: PostgresPool, objects: any ObjectBackend, logger: Logger? = nil) {
        self.pool = pool
        self.objects = objects
        self.logger = logger ?? .disabled
    }

    /// Stores an artifact of `attempt`: the bytes at `tenants/<tenant>/jobs/<job>/<attempt>/<name>`, then its
    /// metadata. Returns nil, keeping nothing, when a later attempt has already saved an artifact of that name.
    /// `name` is 1–128 letters, digits, `.`, `-` or `_`, not starting with a dot.
    public func save(job: JobID, tenant: TenantID, attempt: Int, name: String, contentType: String, bytes: [UInt8]) async throws -> Artifact? {
        guard Self.isValidName(name) else { throw StoreError(.invalidArgument, "artifact name \"\(name)\" is not a plain file name") }
        guard attempt >= 0 else { throw StoreError(.invalidArgument, "attempt must not be negative") }
        // Each attempt writes under its own directory, so a fenced-out attempt never overwrites the bytes in use.
        let path = "tenants/\(tenant)/jobs/\(job)/\(attempt)/\(name)"
        let (size, sha256) = try await objects.write(bytes, to: path)
        let artifact = try await pool.query(
            """
            INSERT INTO artifacts AS a (job_id, tenant_id, name, attempt, content_type, size_bytes, sha256, path)
            VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
            ON CONFLICT (job_id, name) DO UPDATE SET
                attempt = EXCLUDED.attempt, content_type = EXCLUDED.content_type, size_bytes = EXCLUDED.size_bytes,
                sha256 = EXCLUDED.sha256, path = EXCLUDED.path, created_at = now()
            WHERE a.attempt <= EXCLUDED.attempt AND a.tenant_id = EXCLUDED.tenant_id
            RETURNING \(Artifact.columns)
            """,
            [job.rawValue, tenant.rawValue, name, attempt, contentType, size, sha256, path]
        ).first.map(Artifact.init(row:))
        let metadata: Logger.Metadata = ["job.id": "\(job)", "tenant.id": "\(tenant)", "job.attempt": "\(attempt)", "artifact.name": "\(name)"]
        guard let artifact else {
            try await objects.delete(path)
            logger.info("artifact fenced out by a later attempt", metadata: metadata)
            return nil
        }
        logger.debug("artifact saved", metadata: metadata)
        return artifact
    }

    /// The job's artifact named `name`, if the job belongs to `tenant`.
    public func find(job: JobID, tenant: TenantID, name: String) async throws -> Artifact? {
        try await pool.query(
            "SELECT \(Artifact.columns) FROM artifacts WHERE job_id = $1 AND tenant_id = $2 AND name = $3",
            [job.rawValue, tenant.rawValue, name]
        ).first.map(Artifact.init(row:))
    }

    /// The job's artifacts, by name, if the job belongs to `tenant`.
    public func list(job: JobID, tenant: TenantID) async throws -> [Artifact] {
        try await pool.query(
            "SELECT \(Artifact.columns) FROM artifacts WHERE job_id = $1 AND tenant_id = $2 ORDER BY name",
            [job.rawValue, tenant.rawValue]
        ).map(Artifact.init(row:))
    }

    private static func isValidName(_ name: String) -> Bool {
        (1...128).contains(name.utf8.count) && !name.hasPrefix(".")
            && name.utf8.allSatisfy { byte in
                switch byte {
                case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                    UInt8(ascii: "."), UInt8(ascii: "-"), UInt8(ascii: "_"):
                    true
                default:
                    false
                }
            }
    }

    /// The bytes of an artifact.
    public func read(_ artifact: Artifact) async throws -> [UInt8] {
        try await objects.read(artifact.path)
    }

    /// The bytes of an artifact a piece at a time, for answers that stream it.
    public func chunks(of artifact: Artifact) async throws -> ObjectChunks {
        try await objects.chunks(of: artifact.path)
    }
}
