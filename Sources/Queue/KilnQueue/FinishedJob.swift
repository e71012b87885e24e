public import KilnCore

/// A job that reached its end, as PostgreSQL records it, with the finish time Redis gave it: marking it recorded
/// with that time leaves alone a job that was replayed and finished anew since.
public struct FinishedJob: Sendable {
    public let record: JobRecord
    public let finishedAtMilliseconds: Int64
    /// What the job cost its quota subject; nil when unmetered.
    public let charge: QuotaLedgerEntry?

    public init(record: JobRecord, finishedAtMilliseconds: Int64, charge: QuotaLedgerEntry? = nil) {
        self.record = record
        self.finishedAtMilliseconds = finishedAtMilliseconds
        self.charge = charge
    }
}
