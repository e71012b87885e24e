public import KilnCore

/// What one run of the retention purge removed for one tenant.
public struct PurgeCounts: Sendable, Equatable {
    public let tenant: TenantID
    /// Jobs whose input was cleared.
    public var inputs = 0
    /// Jobs whose result was cleared.
    public var results = 0
    /// Artifacts deleted, bytes and record.
    public var artifacts = 0
    /// Uploads deleted, bytes and record.
    public var uploads = 0
    /// Published pages taken down after they expired, and their tombstones deleted 30 days later.
    public var shares = 0
    /// Campaigns deleted with their scenes, not played within the results' retention.
    public var campaigns = 0
    /// Dead-lettered jobs deleted from Redis, with their input and events.
    public var deadLetters = 0
    /// Jobs' records deleted, with their quota ledger rows, past the tenant's `records_days` (rows deleted one by one;
    /// whole days dropped with their partitions are counted in ``PartitionCounts``).
    public var records = 0

    public init(tenant: TenantID) {
        self.tenant = tenant
    }

    /// Whether the run found nothing of this tenant to remove.
    public var isEmpty: Bool { inputs + results + artifacts + uploads + shares + campaigns + deadLetters + records == 0 }
}
