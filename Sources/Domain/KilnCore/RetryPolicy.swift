/// How many times a kind is attempted and how long it waits between attempts.
public struct RetryPolicy: Sendable, Hashable {
    /// Attempts in all, the first included.
    public var maxAttempts: Int
    /// The ceiling of the first retry's delay.
    public var baseDelay: Duration
    /// No delay exceeds this.
    public var maxDelay: Duration

    /// Exponential backoff with full jitter: retry *n* waits a uniform random time in `0 ... min(maxDelay, baseDelay · 2ⁿ⁻¹)`,
    /// so a burst of failures does not come back as a burst.
    public static func exponentialJitter(maxAttempts: Int = 5, baseDelay: Duration = .seconds(1), maxDelay: Duration = .seconds(300)) -> RetryPolicy {
        RetryPolicy(maxAttempts: maxAttempts, baseDelay: baseDelay, maxDelay: maxDelay)
    }

    /// The largest delay the policy may choose after `attempt` failed attempts.
    public func delayCeiling(afterAttempt attempt: Int) -> Duration {
        let exponent = max(0, min(attempt - 1, 40))
        let grown = baseDelay * Double(1 << exponent)
        return min(grown, maxDelay)
    }

    /// The delay before the next attempt, given how many attempts have run; `unitRandom` is uniform in `0..<1`.
    public func delay(afterAttempt attempt: Int, unitRandom: Double) -> Duration {
        delayCeiling(afterAttempt: attempt) * unitRandom
    }
}
