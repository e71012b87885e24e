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

    /// Reserves `job`'s page before anything is written, so every file it writes lies under a slug on record (and
    /// revocation, the purge and erasure find it): a new row under a new slug, or the row an earlier attempt of the job
    /// reserved. The page answers 404 until ``publish(slug:tenant:html:files:expiresAt:)``.
    /// - Throws: ``StoreError/Code/alreadyExists`` when the owner revoked the page an earlier attempt published.
    public func reserve(job: JobID, tenant: TenantID, identity: Identity, expiresAt: Date) async throws -> String {
        let slug = try await pool.withTransaction { connection -> (String, Bool)? in
            _ = try await connection.execute(
                """
                INSERT INTO shares (slug, tenant_id, identity, job_id, expires_at) VALUES ($1, $2, $3, $4, $5)
                ON CONFLICT (job_id) DO NOTHING
                """,
                [Self.newSlug(), tenant.rawValue, identity.rawValue, job.rawValue, expiresAt])
            return try await connection.query("SELECT slug, revoked_at IS NOT NULL AS revoked FROM shares WHERE job_id = $1", [job.rawValue]).first
                .map {
                    (try $0.decode("slug", as: String.self), try $0.decode("revoked", as: Bool.self))
                }
        }
        guard let (slug, revoked) = slug else { throw StoreError(.invalidRecord, "reserving job \(job)'s page returned no row") }
        guard !revoked else { throw StoreError(.alreadyExists, "job \(job)'s page was revoked") }
        return slug
    }

    /// Stores `files` under the reserved `slug`, then the page and its expiry: from then on anyone with the address sees
    /// it. A repeated call (a retried attempt) replaces both.
    /// - Throws: ``StoreError/Code/alreadyExists`` when the page was revoked meanwhile; its files are taken down again.
    public func publish(slug: String, tenant: TenantID, html: String, files: [SharedFile], expiresAt: Date) async throws {
        var stored: [(name: String, contentType: String, path: String)] = []
        for file in files {
            let path = "\(Self.folder(of: slug, tenant: tenant))/\(file.name)"
            _ = try await objects.write(file.bytes, to: path)
            stored.append((file.name, file.contentType, path))
        }
        let paths = stored
        let published = try await pool.withTransaction { connection -> Bool in
            let rows = try await connection.execute(
                "UPDATE shares SET html = $2, expires_at = $3 WHERE slug = $1 AND revoked_at IS NULL", [slug, html, expiresAt])
            // Revoked while this attempt ran: no file row may point at what the revocation took down.
            guard rows == 1 else { return false }
            for file in paths {
                _ = try await connection.execute(
                    """
                    INSERT INTO share_files (slug, name, content_type, path) VALUES ($1, $2, $3, $4)
                    ON CONFLICT (slug, name) DO UPDATE SET content_type = excluded.content_type, path = excluded.path
                    """,
                    [slug, file.name, file.contentType, file.path])
            }
            return true
        }
        guard published else {
            try await takeDown(slug, tenant: tenant)
            throw StoreError(.alreadyExists, "the page was revoked while it was being published")
        }
        logger.info("share published", metadata: ["tenant.id": "\(tenant)", "share.files": "\(files.count)"])
    }

    /// The page at `slug`, and until when it is up; not found while its job is still publishing it.
    public func page(_ slug: String) async throws -> Lookup<(html: String, expiresAt: Date)> {
        guard Self.isWellFormed(slug) else { return .notFound }
        guard
            let row = try await pool.query(
                "SELECT html, expires_at, (revoked_at IS NOT NULL OR expires_at <= now()) AS ended FROM shares WHERE slug = $1", [slug]
            ).first
        else { return .notFound }
        if try row.decode("ended", as: Bool.self) { return .gone }
        guard let html = try row.decode("html", as: String?.self) else { return .notFound }
        return .live((html, try row.decode("expires_at", as: Date.self)))
    }

    /// The file `name` of the page at `slug`: its bytes and content type.
    public func file(_ slug: String, name: String) async throws -> Lookup<(contentType: String, bytes: [UInt8])> {
        guard Self.isWellFormed(slug) else { return .notFound }
        guard
            let row = try await pool.query(
                """
                SELECT s.revoked_at IS NOT NULL OR s.expires_at <= now() AS ended, f.content_type, f.path
                FROM shares s LEFT JOIN share_files f ON f.slug = s.slug AND f.name = $2 WHERE s.slug = $1
                """,
                [slug, name]
            ).first
        else { return .notFound }
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

    /// Revokes `identity`'s page at `slug`: the address answers 410 from now, and the page and its files are deleted.
    /// Repeating it (after a failure part-way) deletes what is left.
    /// - Returns: false when `identity` of `tenant` has no page there (another's is not theirs to revoke).
    public func revoke(_ slug: String, tenant: TenantID, identity: Identity) async throws -> Bool {
        guard Self.isWellFormed(slug) else { return false }
        let revoked = try await pool.execute(
            "UPDATE shares SET revoked_at = coalesce(revoked_at, now()), html = NULL WHERE slug = $1 AND tenant_id = $2 AND identity = $3",
            [slug, tenant.rawValue, identity.rawValue])
        guard revoked == 1 else { return false }
        try await takeDown(slug, tenant: tenant)
        logger.info("share revoked", metadata: ["tenant.id": "\(tenant)"])
        return true
    }

    /// The folder a page's files are stored under.
    static func folder(of slug: String, tenant: TenantID) -> String {
        "tenants/\(tenant)/shares/\(slug)"
    }

    /// Deletes a page's files — every object under its folder, so that a file an interrupted attempt wrote goes too —
    /// then their rows and the page, and marks the row's files removed.
    func takeDown(_ slug: String, tenant: TenantID) async throws {
        try await objects.deleteAll(under: Self.folder(of: slug, tenant: tenant))
        try await pool.withTransaction { connection in
            _ = try await connection.execute("DELETE FROM share_files WHERE slug = $1", [slug])
            _ = try await connection.execute("UPDATE shares SET html = NULL, files_removed = true WHERE slug = $1", [slug])
        }
    }
}

extension UInt8 {
    fileprivate var isBase64URL: Bool {
        (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(self) || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(self)
            || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(self) || self == UInt8(ascii: "-") || self == UInt8(ascii: "_")
    }
}
