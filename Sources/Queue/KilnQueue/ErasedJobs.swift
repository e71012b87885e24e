public import KilnCore

/// What erasing an identity's jobs did in Redis.
public struct ErasedJobs: Sendable, Equatable {
    /// Jobs whose Redis copy (hash, events, place in the queue) is gone.
    public var erased: [JobID]
    /// Jobs that are running (they have been asked to stop) or finished and not yet recorded in PostgreSQL: their
    /// data may still be written, so the erasure is complete only once a later call finds none.
    public var pending: [JobID]

    public init(erased: [JobID] = [], pending: [JobID] = []) {
        self.erased = erased
        self.pending = pending
    }
}
