import KilnCore
import KilnWorker
import Synchronization

/// What a worker would write to PostgreSQL and the object store, kept in memory.
final class MemoryRecords: WorkerRecords {
    private let state = Mutex<(jobs: [JobRecord], charges: [QuotaLedgerEntry], artifacts: [String: [UInt8]])>(([], [], [:]))

    var jobs: [JobRecord] { state.withLock { $0.jobs } }

    func saveArtifact(job: JobID, tenant: TenantID, attempt: Int, name: String, contentType: String, bytes: [UInt8]) async throws {
        state.withLock { $0.artifacts["\(job)/\(name)"] = bytes }
    }

    func record(_ jobs: [JobRecord], charges: [QuotaLedgerEntry]) async throws {
        state.withLock { state in
            state.jobs += jobs
            state.charges += charges
        }
    }
}
