public import Foundation
public import KilnCore
public import Logging
public import PostgresClient

/// Published reading paths (`share.publish`, the web reader at `/s/{slug}`): each a page rendered once, its files in
/// the object store under `tenants/<tenant>/shares/<slug>/`, an expiry and perhaps a revocation. Reads need nothing
/// but the slug, which is the capability: 128 random bits.
public struct ShareStore: Sendable {
    /// What an address shows.
    public enum Lookup<Value: Sendable>: Sendable {
        case live(Value)
        /// Expired or revoked.
        case gone
        case notFound
    }

    /// How long an ended share's row stays, so its address answers 410 rather than 404.
    public static let tombstoneDays = 30

    private let pool: PostgresPool
    private let objects: any ObjectBackend
    private let logger: Logger

    public init(pool: PostgresPool, objects: any ObjectBackend, logger: Logger? = nil) {
        self.pool = pool
        self.objects = objects
        self.logger = logger ?? .disabled
    }

    /// A new slug: 16 bytes from the system's secure generator, base64url without padding (22 characters).
    public static func newSlug() -> String {
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<16).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
        return Data(bytes).base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    /// Whether `slug` has the shape of one ``newSlug()`` makes; anything else is not looked up.
    public static func isWellFormed(_ slug: String) -> Bool {
        slug.utf8.count == 22 && slug.utf8.allSatisfy { $0.isBase64URL }
    }

    /// The slug `job` published under, when an earlier attempt of it got as far as recording it.
    public func slug(publishedBy job: JobID) async throws -> String? {
        try await pool.query("SELECT slug FROM shares WHERE job_id = $1", [job.rawValue]).first?.decode("slug", as: String.self)
    }

    /// Stores `files`, then records the page at `slug` as `identity`'s, live until `expiresAt`. A repeated call for
    /// the same job (a retried attempt) replaces the files and page of the same slug.
    public func publish(
        slug: String, job: JobID, tenant: TenantID, identity: Identity, html: String, files: [SharedFile], expiresAt: Date
    ) async throws {
        var stored: [(name: String, contentType: String, path: String)] = []
        for file in files {
            let path = "tenants/\(tenant)/shares/\(slug)/\(file.name)"
            _ = try await objects.write(file.bytes, to: path)
            stored.append((file.name, file.contentType, path))
        }
        let paths = stored
        let recorded = try await pool.withTransaction { connection in
            let rows = try connection.execute(
                """
                INSERT INTO shares (slug, tenant_id, identity, job_id, html, expires_at) VALUES ($1, $2, $3, $4, $5, $6)
                ON CONFLICT (job_id) DO UPDATE SET html = excluded.html, expires_at = excluded.expires_at
                WHERE shares.slug = excluded.slug AND shares.revoked_at IS NULL
                """,
                [slug, tenant.rawValue, identity.rawValue, job.rawValue, html, expiresAt])
            for file in paths {
                _ = try connection.execute(
                    """
                    INSERT INTO share_files (slug, name, content_type, path) VALUES ($1, $2, $3, $4)
                    ON CONFLICT (slug, name) DO UPDATE SET content_type = excluded.content_type, path = excluded.path
                    """,
                    [slug, file.name, file.contentType, file.path])
            }
            return rows == 1
        }
        guard recorded else {
            throw StoreError(.alreadyExists, "job \(job) published its page already, under another address or since revoked")
        }
        logger.info("share published", metadata: ["tenant.id": "\(tenant)", "job.id": "\(job)", "share.files": "\(files.count)"])
    }

    /// The page at `slug`, and until when it is up.
    public func page(_ slug: String) async throws -> Lookup<(html: String, expiresAt: Date)> {
        guard Self.isWellFormed(slug) else { return .notFound }
        guard let row = try await pool.query(
            "SELECT html, expires_at, (revoked_at IS NOT NULL OR expires_at <= now()) AS ended FROM shares WHERE slug = $1", [slug]
        ).first else { return .notFound }
        guard try !row.decode("ended", as: Bool.self), let html = try row.decode("html", as: String?.self) else { return .gone }
        return .live((html, try row.decode("expires_at", as: Date.self)))
    }

    /// The file `name` of the page at `slug`: its bytes and content type.
    public func file(_ slug: String, name: String) async throws -> Lookup<(contentType: String, bytes: [UInt8])> {
        guard Self.isWellFormed(slug) else { return .notFound }
        guard let row = try await pool.query(
            """
            SELECT s.revoked_at IS NOT NULL OR s.expires_at <= now() AS ended, f.content_type, f.path
            FROM shares s LEFT JOIN share_files f ON f.slug = s.slug AND f.name = $2 WHERE s.slug = $1
            """,
            [slug, name]
        ).first else { return .notFound }
        if try row.decode("ended", as: Bool.self) { return .gone }
        guard let path = try row.decode("path", as: String?.self), let contentType = try row.decode("content_type", as: String?.self) else {
            return .notFound
        }
        do {
            return .live((contentType, try await objects.read(path)))
        } catch let error as StoreError where error.code == .notFound {
            // Revoked or purged between the query and the read.
            return .gone
        }
    }

    /// Revokes `identity`'s page at `slug`: its page and files go at once, and its address answers 410 from now.
    /// - Returns: false when `identity` of `tenant` has no page there (another's is not theirs to revoke).
    public func revoke(_ slug: String, tenant: TenantID, identity: Identity) async throws -> Bool {
        guard Self.isWellFormed(slug) else { return false }
        let paths = try await pool.withTransaction { connection -> [String]? in
            let revoked = try connection.execute(
                "UPDATE shares SET revoked_at = coalesce(revoked_at, now()), html = NULL WHERE slug = $1 AND tenant_id = $2 AND identity = $3",
                [slug, tenant.rawValue, identity.rawValue])
            guard revoked == 1 else { return nil }
            return try connection.query("DELETE FROM share_files WHERE slug = $1 RETURNING path", [slug]).map { try $0.decode("path", as: String.self) }
        }
        guard let paths else { return false }
        for path in paths { try await objects.delete(path) }
        logger.info("share revoked", metadata: ["tenant.id": "\(tenant)", "share.files": "\(paths.count)"])
        return true
    }
}

extension UInt8 {
    fileprivate var isBase64URL: Bool {
        (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(self) || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(self)
            || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(self) || self == UInt8(ascii: "-") || self == UInt8(ascii: "_")
    }
}
