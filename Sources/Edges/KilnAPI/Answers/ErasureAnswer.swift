import KilnPrivacy
import KilnStore

/// `DELETE /v1/identity` (the `Erasure` schema): `erased` once nothing of the identity is left, `pending` while some of
/// its jobs were still running, with what this call removed.
struct ErasureAnswer: Encodable {
    let status: String
    let jobs: Int
    let uploads: Int
    let artifacts: Int
    let shares: Int
    let campaigns: Int
    let pendingJobs: Int

    init(_ erasure: Erasure) {
        status = erasure.isComplete ? "erased" : "pending"
        jobs = erasure.records.jobs.count
        uploads = erasure.records.uploads
        artifacts = erasure.records.artifacts
        shares = erasure.records.shares
        campaigns = erasure.records.campaigns
        pendingJobs = erasure.pendingJobs.count
    }

    enum CodingKeys: String, CodingKey {
        case status, jobs, uploads, artifacts, shares, campaigns
        case pendingJobs = "pending_jobs"
    }
}
