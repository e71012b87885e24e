public import KilnCore
public import KilnStore

/// What one erasure of an identity did, and whether it is complete.
public struct Erasure: Sendable {
    /// The identity's jobs that were running, or finished and not yet recorded: they have been asked to stop, and
    /// may still write a record or an artifact, so the erasure must be repeated until none is left.
    public var pendingJobs: [JobID]
    /// What went from PostgreSQL and the object store.
    public var records: ErasedRecords
    /// Redis keys, set members and log entries of the identity that went (those named by the identity only once no
    /// job is pending).
    public var redisKeys: Int

    public init(pendingJobs: [JobID], records: ErasedRecords, redisKeys: Int) {
        self.pendingJobs = pendingJobs
        self.records = records
        self.redisKeys = redisKeys
    }

    /// Nothing of the identity is left in Redis, PostgreSQL or the object store.
    public var isComplete: Bool { pendingJobs.isEmpty }

    /// This erasure and a later one of the same identity, as one: what both removed, and what the later one left.
    func followed(by later: Erasure) -> Erasure {
        var records = self.records
        records.jobs = Array(Set(records.jobs + later.records.jobs)).sorted { $0.rawValue < $1.rawValue }
        records.artifacts += later.records.artifacts
        records.uploads += later.records.uploads
        records.objects += later.records.objects
        records.formerPartners = Array(Set(records.formerPartners + later.records.formerPartners)).sorted()
        return Erasure(pendingJobs: later.pendingJobs, records: records, redisKeys: redisKeys + later.redisKeys)
    }
}
