public import KilnCore
public import KilnWorker
import Locking

/// What a worker would write to PostgreSQL and the object store, kept in memory.
public final class MemoryRecords: WorkerRecords {
    private let state = Locked<(jobs: [JobRecord], charges: [QuotaLedgerEntry], artifacts: [String: [UInt8]])>(([], [], [:]))

    public init() {}

    public var jobs: [JobRecord] { state.withLock { $0.jobs } }
    /// The artifacts saved, by `<job>/<name>`.
    public var artifacts: [String: [UInt8]] { state.withLock { $0.artifacts } }

    public func saveArtifact(job: JobID, tenant: TenantID, attempt: Int, name: String, contentType: String, bytes: [UInt8]) async throws {
        state.withLock { $0.artifacts["\(job)/\(name)"] = bytes }
    }

    public func record(_ jobs: [JobRecord], charges: [QuotaLedgerEntry]) async throws {
        state.withLock { state in
            state.jobs += jobs
            state.charges += charges
        }
    }
}
