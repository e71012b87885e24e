public import KilnStore

/// What one run of the retention purge did to the partitions of the tables that grow with jobs.
public struct PartitionCounts: Sendable, Equatable {
    /// Partitions made for the coming days (one a table a day).
    public var created = 0
    /// Days whose partitions were dropped, every table's, oldest first.
    public var dropped: [JobPartitions.Day] = []

    public init() {}
}
