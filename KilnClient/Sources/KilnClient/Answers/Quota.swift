/// The caller's tier and each quota class's use today (`GET /v1/quota`, the `Quota` schema).
public struct Quota: Decodable, Sendable, Equatable {
    /// One class's limit and use; nil limit and remaining when unlimited.
    public struct ClassUse: Decodable, Sendable, Equatable {
        public let limit: Int?
        public let used: Int
        /// Units reserved by unfinished jobs.
        public let pending: Int
        public let remaining: Int?
    }

    /// The identity's jobs that hold a reservation, and how many its tier allows at once.
    public struct UnfinishedJobs: Decodable, Sendable, Equatable {
        public let count: Int
        public let cap: Int
    }

    public let tier: String
    /// `yyyyMMdd` in the tenant's reset time zone.
    public let day: String
    /// When the day's limits reset (ISO 8601).
    public let resetAt: String
    public let unfinishedJobs: UnfinishedJobs
    /// By quota class (`text`, `image`, `video`, …).
    public let classes: [String: ClassUse]

    enum CodingKeys: String, CodingKey {
        case tier, day, classes
        case resetAt = "reset_at"
        case unfinishedJobs = "unfinished_jobs"
    }
}
