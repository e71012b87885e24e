/// What `DELETE /v1/identity` removed (the `Erasure` schema).
public struct Erasure: Decodable, Sendable, Equatable {
    /// Everything of the identity is gone; false while some of its jobs were still stopping.
    public var isComplete: Bool { status == "erased" }
    /// `erased` or `pending`.
    public let status: String
    public let jobs: Int
    public let uploads: Int
    public let artifacts: Int
    public let shares: Int
    /// WorldArchitect campaigns deleted, with their scenes.
    public let campaigns: Int
    /// Jobs still running, told to stop.
    public let pendingJobs: Int

    enum CodingKeys: String, CodingKey {
        case status, jobs, uploads, artifacts, shares, campaigns
        case pendingJobs = "pending_jobs"
    }
}
