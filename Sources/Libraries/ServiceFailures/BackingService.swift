/// The services Kiln keeps its state in, so that a failure can say which one it came from and the API can name it in
/// its answer (`queue_unavailable`, `database_unavailable`, `storage_unavailable`).
public enum BackingService: String, Sendable, CaseIterable {
    /// Redis: the queue, the quota counters, the job events.
    case redis
    /// PostgreSQL: the record (keys, jobs, artifacts' metadata, shares, entitlements).
    case postgres
    /// The bucket of an S3-compatible server that holds the objects' bytes.
    case objectStore = "object_store"
}
