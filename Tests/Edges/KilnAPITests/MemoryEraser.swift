import KilnAPI
import KilnCore
import KilnPrivacy
import KilnStore
import Locking

/// Erasure in memory: each identity's jobs, uploads and shares, of which `running` jobs are told to stop on the first
/// call and have stopped by the next.
final class MemoryEraser: IdentityErasing {
    struct Holdings {
        var jobs: [JobID] = []
        var running: [JobID] = []
        var uploads = 0
        var shares = 0
    }

    private let holdings: Locked<[Identity: Holdings]>

    init(_ holdings: [Identity: Holdings] = [:]) {
        self.holdings = Locked(holdings)
    }

    func erase(identity: Identity, tenant: TenantID) async throws -> Erasure {
        holdings.withLock { holdings in
            let held = holdings[identity] ?? Holdings()
            var records = ErasedRecords()
            records.jobs = held.jobs
            records.uploads = held.uploads
            records.shares = held.shares
            // What was erased is gone; the running jobs stop and are erased next time.
            holdings[identity] = Holdings(jobs: held.running)
            return Erasure(pendingJobs: held.running, records: records, redisKeys: 0)
        }
    }
}
