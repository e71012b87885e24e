import KilnQueue
import Metrics

/// `kiln_job_failures_total` by job kind and outcome (retried, failed, dead): the failures the job counter, which is
/// by class, does not tell apart. Every kind a worker serves starts at zero, so a rate is defined before the first
/// failure and the series exist for the dashboard from the start.
enum FailureCounters {
    static let outcomes: [AttemptOutcome] = AttemptOutcome.allCases.filter(\.isFailure)

    static func counter(kind: String, outcome: AttemptOutcome) -> Counter {
        Counter(label: "kiln_job_failures_total", dimensions: [("kind", kind), ("outcome", outcome.rawValue)])
    }

    /// Registers the counters of `kinds` at zero.
    static func start(kinds: [String]) {
        for kind in kinds {
            for outcome in outcomes { _ = counter(kind: kind, outcome: outcome) }
        }
    }
}
