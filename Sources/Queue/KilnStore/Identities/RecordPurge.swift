public import Foundation
public import KilnCore
public import Logging
public import PostgresClient

/// The retention purge's work in PostgreSQL and the object store (docs/privacy.md): each call clears or deletes at
/// most `limit` of one tenant's oldest items past a cutoff and says how many, so a caller repeats it until it
/// answers less than `limit`. Repeating a call that did its work finds nothing: every step is idempotent.
public struct RecordPurge: Sendable {
    private let pool: PostgresPool
    private let objects: any ObjectBackend
    private let logger: Logger

    public init(pool: PostgresPool, objects: any ObjectBackend, logger: Logger? = nil) {
        self.pool = pool
        self.objects = objects
        self.logger = logger ?? .disabled
    }

    /// The day partitions of the tables that grow with jobs, which the purge creates ahead and drops.
    public var partitions: JobPartitions { JobPartitions(pool: pool) }

    /// Replaces the inputs of jobs that finished before `cutoff` with JSON null. The record of the job (who, what
    /// kind, when, how it ended) stays. - Returns: the jobs whose input went, so their Redis copies can go too.
    public func clearInputs(tenant: TenantID, finishedBefore cutoff: Date, limit: Int) async throws -> [JobID] {
        // The inner query matches the partial index `jobs_input_kept_idx`, which holds only inputs still kept.
        try await pool.query(
            """
            UPDATE jobs SET input = 'null'::jsonb WHERE id IN (
                SELECT id FROM jobs WHERE tenant_id = $1 AND finished_at < $2 AND input <> 'null'::jsonb
                ORDER BY finished_at LIMIT $3)
            RETURNING id
            """,
            [tenant.rawValue, cutoff, limit]
        ).map { try $0.decode("id", as: JobID.self) }
    }

    /// Removes the results of jobs that finished before `cutoff`. - Returns: the jobs whose result went.
    public func clearResults(tenant: TenantID, finishedBefore cutoff: Date, limit: Int) async throws -> [JobID] {
        try await pool.query(
            """
            UPDATE jobs SET result = NULL WHERE id IN (
                SELECT id FROM jobs WHERE tenant_id = $1 AND finished_at < $2 AND result IS NOT NULL
                ORDER BY finished_at LIMIT $3)
            RETURNING id
            """,
            [tenant.rawValue, cutoff, limit]
        ).map { try $0.decode("id", as: JobID.self) }
    }

    /// Deletes artifacts stored before `cutoff`: their bytes, then their records. A job left without artifacts
    /// loses every object under its directory too: earlier attempts' bytes, which a later attempt's record replaced.
    public func deleteArtifacts(tenant: TenantID, storedBefore cutoff: Date, limit: Int) async throws -> Int {
        let expired = try await pool.query(
            "SELECT job_id, name, path FROM artifacts WHERE tenant_id = $1 AND created_at < $2 ORDER BY created_at LIMIT $3",
            [tenant.rawValue, cutoff, limit]
        ).map {
            (
                job: try $0.decode("job_id", as: JobID.self).rawValue, name: try $0.decode("name", as: String.self),
                path: try $0.decode("path", as: String.self)
            )
        }
        guard !expired.isEmpty else { return 0 }
        for artifact in expired { try await objects.delete(artifact.path) }
        // Matched by path as well: a row that a later attempt replaced meanwhile is not the expired one.
        let deleted = try await pool.execute(
            """
            DELETE FROM artifacts a USING unnest($1::uuid[], $2::text[], $3::text[]) AS d(job_id, name, path)
            WHERE a.job_id = d.job_id AND a.name = d.name AND a.path = d.path
            """,
            [expired.map(\.job), expired.map(\.name), expired.map(\.path)])
        let jobs = Array(Set(expired.map(\.job)))
        let remaining = Set(
            try await pool.query("SELECT DISTINCT job_id FROM artifacts WHERE job_id = ANY($1::uuid[])", [jobs]).map {
                try $0.decode("job_id", as: JobID.self).rawValue
            })
        for job in jobs where !remaining.contains(job) {
            try await objects.deleteAll(under: "tenants/\(tenant)/jobs/\(job)")
        }
        logger.debug("artifacts purged", metadata: ["tenant.id": "\(tenant)", "purge.count": "\(deleted)"])
        return expired.count
    }

    /// Deletes the records of jobs submitted before `cutoff`, with their quota ledger rows, oldest first: the tenant's
    /// `records_days`, for a tenant whose records go before the longest kept (whole days go with their partitions,
    /// ``dropDay(_:artifactsStoredBefore:)``). - Returns: how many records went.
    public func deleteRecords(tenant: TenantID, submittedBefore cutoff: Date, limit: Int) async throws -> Int {
        try await pool.query(
            """
            WITH gone AS (
                DELETE FROM jobs WHERE id IN (
                    SELECT id FROM jobs WHERE tenant_id = $1 AND created_at < $2 ORDER BY created_at LIMIT $3)
                RETURNING id),
            ledger AS (DELETE FROM quota_ledger WHERE tenant_id = $1 AND job_id IN (SELECT id FROM gone))
            SELECT count(*)::int AS n FROM gone
            """,
            [tenant.rawValue, cutoff, limit]
        ).first?.decode("n", as: Int.self) ?? 0
    }

    /// Drops a day's partitions of jobs, artifacts and the quota ledger, unless it holds an artifact stored at
    /// `artifactsStoredBefore` or later (a job that ran long after its day). The bytes of its artifacts go first, and
    /// every object under their jobs' directories. - Returns: whether the day went.
    public func dropDay(_ day: JobPartitions.Day, artifactsStoredBefore cutoff: Date) async throws -> Bool {
        guard try await !partitions.holdsArtifacts(of: day, storedSince: cutoff) else { return false }
        let artifacts = try await partitions.artifacts(of: day)
        for artifact in artifacts { try await objects.delete(artifact.path) }
        for directory in Set(artifacts.map { "tenants/\($0.tenant)/jobs/\($0.job)" }) { try await objects.deleteAll(under: directory) }
        try await partitions.drop(day)
        logger.info("partitions dropped", metadata: ["partition.day": "\(day)", "purge.artifacts": "\(artifacts.count)"])
        return true
    }

    /// Deletes uploads made before `cutoff`: their bytes, then their records.
    public func deleteUploads(tenant: TenantID, uploadedBefore cutoff: Date, limit: Int) async throws -> Int {
        let expired = try await pool.query(
            "SELECT id, path FROM uploads WHERE tenant_id = $1 AND created_at < $2 ORDER BY created_at LIMIT $3",
            [tenant.rawValue, cutoff, limit]
        ).map { (id: try $0.decode("id", as: UUID.self), path: try $0.decode("path", as: String.self)) }
        guard !expired.isEmpty else { return 0 }
        for upload in expired { try await objects.delete(upload.path) }
        _ = try await pool.execute("DELETE FROM uploads WHERE id = ANY($1::uuid[])", [expired.map(\.id)])
        logger.debug("uploads purged", metadata: ["tenant.id": "\(tenant)", "purge.count": "\(expired.count)"])
        return expired.count
    }

    /// Takes down published pages that ended before `now` (expired, or revoked and not yet taken down): their files'
    /// bytes, their file records and their page. The row stays as a tombstone so the address answers 410, and goes once
    /// it ended ``ShareStore/tombstoneDays`` ago and its files are gone.
    /// - Returns: how many pages were taken down or tombstones deleted.
    /// Deletes the tenant's campaigns not played since `cutoff` (a campaign is its scenes: generated results), with
    /// their scenes, at most `limit`; a campaign with a turn in flight waits for the turn.
    public func deleteCampaigns(tenant: TenantID, idleBefore cutoff: Date, limit: Int) async throws -> Int {
        try await pool.execute(
            """
            DELETE FROM campaigns WHERE id IN (
                SELECT id FROM campaigns WHERE tenant_id = $1 AND updated_at < $2 AND pending_job IS NULL LIMIT $3)
            """,
            [tenant.rawValue, cutoff, limit])
    }

    public func endShares(tenant: TenantID, now: Date, limit: Int) async throws -> Int {
        let ended = try await pool.query(
            """
            SELECT slug FROM shares WHERE tenant_id = $1 AND NOT files_removed AND (expires_at <= $2 OR revoked_at IS NOT NULL)
            ORDER BY expires_at LIMIT $3
            """,
            [tenant.rawValue, now, limit]
        ).map { try $0.decode("slug", as: String.self) }
        let shares = ShareStore(pool: pool, objects: objects, logger: logger)
        for slug in ended { try await shares.takeDown(slug, tenant: tenant) }
        let tombstones = try await pool.execute(
            """
            DELETE FROM shares WHERE slug IN (
                SELECT slug FROM shares WHERE tenant_id = $1 AND files_removed AND least(expires_at, coalesce(revoked_at, expires_at)) < $2
                LIMIT $3)
            """,
            [tenant.rawValue, now - Double(ShareStore.tombstoneDays) * 86_400, limit])
        logger.debug("shares purged", metadata: ["tenant.id": "\(tenant)", "purge.ended": "\(ended.count)", "purge.tombstones": "\(tombstones)"])
        return ended.count + tombstones
    }
}
