import KilnCore
import KilnQueue
import Locking

/// The attempts this worker settled since its last heartbeat, by class, tenant and outcome: the runners add to it,
/// the heartbeat takes it (and gives it back when the beat fails, so nothing is lost to a Redis blip).
final class EndedAttempts: Sendable {
    private let tally = Locked(OutcomeTally())

    /// Counts the attempts one settle ended.
    func count(_ ended: [(job: ClaimedJob, outcome: AttemptOutcome)], jobClass: JobClass) {
        tally.withLock { tally in
            for (job, outcome) in ended { tally.add(outcome, jobClass: jobClass, tenant: job.tenant.rawValue) }
        }
    }

    /// What was counted since the last call.
    func take() -> OutcomeTally {
        tally.withLock { tally in
            defer { tally = OutcomeTally() }
            return tally
        }
    }

    /// Counts again what a failed heartbeat did not deliver.
    func giveBack(_ untold: OutcomeTally) {
        tally.withLock { $0.merge(untold) }
    }
}
