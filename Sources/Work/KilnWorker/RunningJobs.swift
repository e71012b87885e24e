import KilnCore
import KilnQueue
import Locking

/// The attempts this worker is running, and why one was stopped, if it was; and those that ended, until Redis has
/// their settlement.
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
        let jobClass: JobClass
        let tenant: TenantID
        let task: Task<String, any Error>
        /// When its kind's hard deadline passes.
        let deadline: ContinuousClock.Instant
        var reason: StopReason?
        /// The handler returned and the settlement is on its way to Redis: its lease is still renewed, so an outage
        /// shorter than the lease hands a finished job to no other attempt, but nothing stops it any more.
        var ended = false
    }

    private let entries = Locked<[JobID: Entry]>([:])

    var count: Int { entries.withLock { $0.count } }

    /// The leases to renew: every attempt's, running or ended and not yet settled, but those already found lost. A
    /// stopped attempt can take a while to end (its last events are still being written), and renewing its lease again
    /// would only report the loss again.
    var leases: [(JobID, Int)] {
        entries.withLock { entries in entries.compactMap { $0.value.reason == .leaseLost ? nil : ($0.key, $0.value.attempt) } }
    }

    /// The attempts running by class and tenant, for the heartbeat.
    var lanes: [WorkerHeartbeat.Lane] {
        let counts = entries.withLock { entries in
            entries.values.reduce(into: [:]) { counts, entry in counts[LaneKey(jobClass: entry.jobClass, tenant: entry.tenant), default: 0] += 1 }
        }
        return counts.map { WorkerHeartbeat.Lane(jobClass: $0.key.jobClass, tenant: $0.key.tenant.rawValue, running: $0.value) }
            .sorted { ($0.jobClass.rawValue, $0.tenant) < ($1.jobClass.rawValue, $1.tenant) }
    }

    private struct LaneKey: Hashable {
        let jobClass: JobClass
        let tenant: TenantID
    }

    /// Tracks a new attempt. An older attempt of the same job still running here lost its lease (this worker's own
    /// claim recovered the job after an outage): it is stopped.
    func add(_ job: ClaimedJob, of jobClass: JobClass, task: Task<String, any Error>) {
        let older = entries.withLock { entries in
            defer {
                entries[job.id] = Entry(attempt: job.attempt, jobClass: jobClass, tenant: job.tenant, task: task, deadline: .now + job.timeout)
            }
            return entries[job.id]
        }
        older?.task.cancel()
    }

    /// Marks the attempt ended and tells why it was stopped, if it was; its lease is renewed until ``settled(_:)``. An
    /// attempt whose lease was lost, or that a newer one replaced, settles nothing and is forgotten at once.
    func end(_ job: ClaimedJob) -> StopReason? {
        entries.withLock { entries in
            guard var entry = entries[job.id], entry.attempt == job.attempt else { return .leaseLost }
            guard entry.reason != .leaseLost else {
                entries[job.id] = nil
                return .leaseLost
            }
            entry.ended = true
            entries[job.id] = entry
            return entry.reason
        }
    }

    /// Forgets ended attempts whose settlements Redis answered, taken or fenced off.
    func settled(_ settlements: [Settlement]) {
        entries.withLock { entries in
            for settlement in settlements {
                guard let entry = entries[settlement.job], entry.attempt == settlement.attempt, entry.ended else { continue }
                entries[settlement.job] = nil
            }
        }
    }

    /// Cancels the job's current attempt (only if it is `attempt`, when given). The first reason given is the one that
    /// counts, but a lost lease: whatever stopped the attempt before, the job is another worker's now, and the attempt
    /// must neither be renewed again nor settle. - Returns: whether such an attempt was running; one that ended
    /// meanwhile settles by itself.
    @discardableResult
    func stop(_ id: JobID, attempt: Int? = nil, because reason: StopReason) -> Bool {
        let task: Task<String, any Error>? = entries.withLock { entries in
            guard var entry = entries[id], attempt == nil || entry.attempt == attempt else { return nil }
            if entry.reason == nil || reason == .leaseLost { entry.reason = reason }
            entries[id] = entry
            return entry.ended ? nil : entry.task
        }
        task?.cancel()
        return task != nil
    }

    /// Stops the attempts whose deadline has passed. Checked at every lease renewal rather than by a timer per job,
    /// so a deadline is enforced within one renewal interval.
    func stopOverdue() {
        let now = ContinuousClock.now
        let overdue = entries.withLock { entries in
            entries.filter { !$0.value.ended && $0.value.deadline <= now }.map { ($0.key, $0.value.attempt) }
        }
        for (id, attempt) in overdue { stop(id, attempt: attempt, because: .deadline) }
    }

    func stopAll(because reason: StopReason) {
        for id in entries.withLock({ entries in entries.filter { !$0.value.ended }.map(\.key) }) { stop(id, because: reason) }
    }
}
