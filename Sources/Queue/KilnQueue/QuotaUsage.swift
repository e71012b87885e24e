/// A subject's use of one quota class on one day, as admission saw it.
public struct QuotaUsage: Sendable, Equatable {
    /// The day's limit; nil when unlimited.
    public let limit: Int?
    /// Units of jobs that succeeded (or failed beyond the refund cap).
    public let used: Int
    /// Units reserved by jobs that have not finished.
    public let pending: Int

    public init(limit: Int?, used: Int, pending: Int) {
        self.limit = limit
        self.used = used
        self.pending = pending
    }

    /// Units still free today; nil when unlimited.
    public var remaining: Int? { limit.map { max($0 - used - pending, 0) } }
}
