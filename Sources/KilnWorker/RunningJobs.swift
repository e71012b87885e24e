import KilnCore
import KilnQueue
import Synchronization

/// The attempts this worker is running, and why one was stopped, if it was.
final class RunningJobs: Sendable {
    enum StopReason: Sendable {
        /// Another worker may hold the job now: settle nothing.
        case leaseLost
        /// Its owner cancelled it.
        case cancelRequested
        /// Its kind's deadline passed.
        case deadline
        /// The worker is shutting down and the grace period ran out: hand it back.
        case shutdown
    }

    private struct Entry {
        let attempt: Int
        let task: Task<String, any Error>
        var reason: StopReason?
    }

    private let entries = Mutex<[JobID: Entry]>([:])

    var count: Int { entries.withLock { $0.count } }

    var leases: [(JobID, Int)] { entries.withLock { $0.map { ($0.key, $0.value.attempt) } } }

    func add(_ job: ClaimedJob, task: Task<String, any Error>) {
        entries.withLock { $0[job.id] = Entry(attempt: job.attempt, task: task) }
    }

    /// Forgets the job and tells why it was stopped, if it was.
    func remove(_ id: JobID) -> StopReason? {
        entries.withLock { $0.removeValue(forKey: id)?.reason }
    }

    /// Cancels the job's handler; the first reason given is the one that counts.
    func stop(_ id: JobID, because reason: StopReason) {
        let task: Task<String, any Error>? = entries.withLock { entries in
            guard var entry = entries[id] else { return nil }
            if entry.reason == nil { entry.reason = reason }
            entries[id] = entry
            return entry.task
        }
        task?.cancel()
    }

    func stopAll(because reason: StopReason) {
        for id in entries.withLock({ Array($0.keys) }) { stop(id, because: reason) }
    }
}
