/// Whether a call tries again, and after how long: the client's whole retry rule, without I/O. A `429` or `503` is
/// retried whatever the route (the server refused before doing anything: Kiln fails closed and a denial writes
/// nothing), after its `Retry-After`; a lost connection only on a route that is safe to repeat, after a growing pause.
/// Nothing waits past the caller's budget.
struct RetryPlan: Sendable {
    /// What the last try of a call got.
    enum Outcome {
        /// An answer with `status`, and its `Retry-After` if it had one.
        case answered(status: Int, retryAfter: Duration?)
        /// No answer: the connection failed or timed out.
        case noAnswer
    }

    enum Decision: Equatable {
        case retry(after: Duration)
        case stop
    }

    let budget: Duration
    let repeatable: Bool
    /// Time waited so far by this call.
    private(set) var waited: Duration = .zero
    private(set) var connectionRetries = 0

    /// The pause when a `429` or `503` names none.
    static let defaultRetryAfter: Duration = .seconds(1)

    init(budget: Duration, repeatable: Bool) {
        self.budget = budget
        self.repeatable = repeatable
    }

    /// The decision after `outcome`; a retry's wait is counted against the budget.
    mutating func next(after outcome: Outcome) -> Decision {
        let wait: Duration
        switch outcome {
        case .answered(let status, let retryAfter) where status == 429 || status == 503:
            wait = retryAfter ?? Self.defaultRetryAfter
        case .answered:
            return .stop
        case .noAnswer:
            guard repeatable else { return .stop }
            wait = Self.backoff(connectionRetries)
            connectionRetries += 1
        }
        guard waited + wait <= budget else { return .stop }
        waited += wait
        return .retry(after: wait)
    }

    /// 250 ms, doubling, at most 4 s: the pause before the `attempt`-th retry after a lost connection (from 0).
    static func backoff(_ attempt: Int) -> Duration {
        .milliseconds(250 * (1 << min(attempt, 4)))
    }
}
