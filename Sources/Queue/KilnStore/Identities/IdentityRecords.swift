public import KilnCore
public import Logging
public import PostgresClient

/// One identity's data in PostgreSQL and the object store, for erasure (docs/privacy.md): its jobs with their
/// inputs and results, their artifacts (the bytes of every attempt), its uploads, its published pages and their files,
/// its quota ledger rows, its entitlement and its partner links and invitations. Its jobs' provider usage stays, detached from the jobs, as the
/// tenant's spend.
public struct IdentityRecords: Sendable {
    let pool: PostgresPool
    private let objects: any ObjectBackend
    private let logger: Logger

    public init(pool: PostgresPool, objects: any ObjectBackend, logger: Logger? = nil) {
        self.pool = pool
        self.objects = objects
        self.logger = logger ?? .disabled
    }

    /// The identity's recorded jobs.
    public func jobs(of identity: Identity, tenant: TenantID) async throws -> [JobID] {
        try await pool.query(
            "SELECT id FROM jobs WHERE tenant_id = $1 AND identity = $2", [tenant.rawValue, identity.rawValue]
        ).map { try $0.decode("id", as: JobID.self) }
    }

    /// Who owns those of `jobs` the tenant has records of.
    public func owners(of jobs: [JobID], tenant: TenantID) async throws -> [JobID: Identity] {
        guard !jobs.isEmpty else { return [:] }
        let rows = try await pool.query(
            "SELECT id, identity FROM jobs WHERE tenant_id = $1 AND id = ANY($2::uuid[])", [tenant.rawValue, jobs.map(\.rawValue)])
        var owners: [JobID: Identity] = [:]
        for row in rows {
            if let identity = Identity(validating: try row.decode("identity", as: String.self)) {
                owners[try row.decode("id", as: JobID.self)] = identity
            }
        }
        return owners
    }

    /// The partner pools the identity draws on or drew on (`pair:<id>`, the quota subject of a pair), from its links
    /// current and ended.
    public func pools(of identity: Identity, tenant: TenantID) async throws -> [String] {
        try await pool.query(
            // As the standing names the pool (`EntitlementStore.standing`): the uuid as PostgreSQL writes it.
            "SELECT DISTINCT pair_id::text AS pair FROM partner_links WHERE tenant_id = $1 AND (identity = $2 OR partner = $2)",
            [tenant.rawValue, identity.rawValue]
        ).map { "pair:\(try $0.decode("pair", as: String.self))" }
    }

    /// Erases the identity's data. Bytes go before the rows that point at them, so a failure part-way leaves rows
    /// that a repeated call finds again; the rows' own paths are deleted once more after the rows, for bytes
    /// written in between.
    /// - Parameter jobs: the identity's jobs: those recorded (``jobs(of:tenant:)``) and those that Redis holds and
    ///   PostgreSQL may not have recorded yet. Their artifacts, ledger rows and objects go; records of jobs not named
    ///   go too, but not their artifacts.
    public func erase(identity: Identity, tenant: TenantID, jobs ids: [JobID]) async throws -> ErasedRecords {
        let jobs = ids.map(\.rawValue)
        var erased = ErasedRecords()
        for job in jobs {
            erased.objects += try await objects.deleteAll(under: "tenants/\(tenant)/jobs/\(job)")
        }
        let uploadPaths = try await pool.query(
            "SELECT path FROM uploads WHERE tenant_id = $1 AND identity = $2", [tenant.rawValue, identity.rawValue]
        ).map { try $0.decode("path", as: String.self) }
        for path in uploadPaths { try await objects.delete(path) }
        erased.objects += uploadPaths.count
        let shares = try await pool.query(
            "SELECT slug FROM shares WHERE tenant_id = $1 AND identity = $2", [tenant.rawValue, identity.rawValue]
        ).map { try $0.decode("slug", as: String.self) }
        for slug in shares { erased.objects += try await objects.deleteAll(under: ShareStore.folder(of: slug, tenant: tenant)) }

        let tenantID = tenant.rawValue
        let subject = identity.rawValue
        let rows = try await pool.withTransaction { connection in
            var rows = ErasedRows()
            rows.artifactPaths = try await connection.query(
                "DELETE FROM artifacts WHERE tenant_id = $1 AND job_id = ANY($2::uuid[]) RETURNING path", [tenantID, jobs]
            ).map { try $0.decode("path", as: String.self) }
            rows.uploadPaths = try await connection.query(
                "DELETE FROM uploads WHERE tenant_id = $1 AND identity = $2 RETURNING path", [tenantID, subject]
            ).map { try $0.decode("path", as: String.self) }
            // Rows of the identity's own pool, and of its jobs in a partner pool (subject `pair:…`).
            _ = try await connection.execute(
                "DELETE FROM quota_ledger WHERE tenant_id = $1 AND (subject = $2 OR job_id = ANY($3::uuid[]))", [tenantID, subject, jobs])
            _ = try await connection.execute(
                "UPDATE provider_usage SET job_id = NULL WHERE tenant_id = $1 AND job_id = ANY($2::uuid[])", [tenantID, jobs])
            _ = try await connection.execute("DELETE FROM jobs WHERE tenant_id = $1 AND identity = $2", [tenantID, subject])
            _ = try await connection.execute("DELETE FROM entitlements WHERE tenant_id = $1 AND identity = $2", [tenantID, subject])
            rows.shares = try await connection.execute("DELETE FROM shares WHERE tenant_id = $1 AND identity = $2", [tenantID, subject])
            rows.campaigns = try await connection.execute("DELETE FROM campaigns WHERE tenant_id = $1 AND identity = $2", [tenantID, subject])
            rows.partners = try await connection.query(
                "DELETE FROM partner_links WHERE tenant_id = $1 AND (identity = $2 OR partner = $2) RETURNING identity, partner",
                [tenantID, subject]
            ).flatMap { [try $0.decode("identity", as: String.self), try $0.decode("partner", as: String.self)] }
            _ = try await connection.execute(
                "DELETE FROM partner_invitations WHERE tenant_id = $1 AND (inviter = $2 OR redeemer = $2)", [tenantID, subject])
            return rows
        }
        let known = Set(uploadPaths)
        for path in rows.artifactPaths + rows.uploadPaths where !known.contains(path) { try await objects.delete(path) }
        // Files a publishing attempt wrote in between.
        for slug in shares { erased.objects += try await objects.deleteAll(under: ShareStore.folder(of: slug, tenant: tenant)) }
        erased.jobs = ids
        erased.artifacts = rows.artifactPaths.count
        erased.uploads = rows.uploadPaths.count
        erased.shares = rows.shares
        erased.campaigns = rows.campaigns
        erased.formerPartners = Array(Set(rows.partners).subtracting([subject])).sorted()
        logger.info(
            "identity records erased",
            metadata: [
                "tenant.id": "\(tenant)", "erased.jobs": "\(erased.jobs.count)", "erased.uploads": "\(erased.uploads)",
                "erased.objects": "\(erased.objects)",
            ])
        return erased
    }
}

/// What the erasing transaction deleted, handed out of it.
private struct ErasedRows: Sendable {
    var artifactPaths: [String] = []
    var uploadPaths: [String] = []
    var partners: [String] = []
    var shares = 0
    var campaigns = 0
}
