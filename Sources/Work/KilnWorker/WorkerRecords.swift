public import KilnCore
public import KilnStore

/// Where a worker writes what its jobs produced and what finished: PostgreSQL and the object store
/// (``StoreRecords``), or memory in unit tests.
public protocol WorkerRecords: Sendable {
    /// Stores an artifact of an attempt (a later attempt's artifact of the same name wins).
    func saveArtifact(job: JobID, tenant: TenantID, attempt: Int, name: String, contentType: String, bytes: [UInt8]) async throws
    /// Writes finished jobs' records, and what the metered ones cost to the quota ledger; both idempotent.
    func record(_ jobs: [JobRecord], charges: [QuotaLedgerEntry]) async throws
}

/// The worker's records in PostgreSQL (jobs, the quota ledger, artifacts' rows) and the object store (artifacts' bytes).
public struct StoreRecords: WorkerRecords {
    private let jobs: JobStore
    private let ledger: QuotaLedger
    private let artifacts: ArtifactStore

    public init(jobs: JobStore, ledger: QuotaLedger, artifacts: ArtifactStore) {
        self.jobs = jobs
        self.ledger = ledger
        self.artifacts = artifacts
    }

    public func saveArtifact(job: JobID, tenant: TenantID, attempt: Int, name: String, contentType: String, bytes: [UInt8]) async throws {
        _ = try await artifacts.save(job: job, tenant: tenant, attempt: attempt, name: name, contentType: contentType, bytes: bytes)
    }

    public func record(_ jobs: [JobRecord], charges: [QuotaLedgerEntry]) async throws {
        _ = try await self.jobs.record(jobs)
        try await ledger.record(charges)
    }
}
