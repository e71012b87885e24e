import Hummingbird
import KilnQueue

/// Cancelling every job that has not ended and that a filter matches — the job search's "Cancel every match" and a
/// tenant's "Clear queued …": counted for the confirmation over a bounded read of Redis, then cancelled in the
/// background a batch at a time (``LiveJobs/cancelAll(matching:batch:walkLimit:progress:)``), audited when it starts
/// and with the counts when it ends.
struct LiveJobCancellation {
    /// A confirmation counts the matches over at most this many of Redis's entries (25 pages' reads); past them it says
    /// "at least".
    static let countedEntries = 50_000

    let dependencies: ConsoleDependencies
    let context: ConsoleRequestContext

    /// How many jobs `filter` matches, read as a confirmation may.
    func count(_ filter: LiveJobs.Filter) async throws -> LiveJobs.MatchCount {
        try await dependencies.namespace.liveJobs.count(filter, readingAtMost: Self.countedEntries)
    }

    /// `count` in words: `1200`, or `at least 50000` when the count stopped at its bound.
    static func phrase(_ count: LiveJobs.MatchCount) -> String {
        count.complete ? "\(count.matches)" : "at least \(count.matches)"
    }

    /// Starts cancelling what `filter` matches, audited as `action` on `target` (`counted`, the confirmation's count
    /// in words, in its start), and goes back to `page`.
    func start(_ filter: LiveJobs.Filter, action: String, on target: String, counted: String, returningTo page: String) async throws -> Response {
        let jobs = dependencies.namespace.liveJobs
        return try await BulkAction(dependencies: dependencies, context: context).start(
            action, on: target, returningTo: page,
            started: "started: cancel \(counted) in batches of \(BulkAction.batchSize); the audit log says when it is done"
        ) {
            var sofar = LiveJobs.Cancellation()
            do {
                let done = try await jobs.cancelAll(matching: filter, batch: BulkAction.batchSize) { sofar = $0 }
                let unfinished = "; stopped after \(done.walks) walks with matches still coming: run it again for the rest"
                return "finished: " + Self.describe(done) + (done.complete ? "" : unfinished)
            } catch {
                return "failed, having \(Self.describe(sofar)): \(error)"
            }
        }
    }

    /// What a cancelling did, for the audit log: `cancelled 1200`, and the running jobs told to stop.
    static func describe(_ done: LiveJobs.Cancellation) -> String {
        "cancelled \(done.cancelled)" + (done.stopping > 0 ? "; told \(done.stopping) running to stop" : "")
    }
}
