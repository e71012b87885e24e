public import KilnCore

/// What to do after a provider call failed: the retry table's verdict turned into an action.
///
/// Back-pressure is not failure: a throttled provider is parked (every worker leaves it alone for the time it
/// asked) and the call moves on, to a fallback or back to the queue, without spending the job's attempt.
public struct ProviderCallPolicy: Sendable {
    /// The next step after a failure.
    public enum Decision: Sendable, Equatable {
        /// Send the same request to the same provider again after this wait.
        case retry(after: Duration)
        /// Leave this provider alone for this long, everywhere, and go on without it.
        case park(for: Duration)
        /// The provider cannot serve anyone until an operator acts (a bad key, no money left): open its circuit
        /// and go on without it.
        case disable
        /// This provider gave up on the request; another one may still serve it.
        case nextProvider
        /// The request itself is wrong or was refused: no provider will do better.
        case fail
    }

    /// In-process retries of one provider: 3 attempts in all, 0.5 s doubling to 8 s, full jitter (the official SDKs
    /// retry twice with the same base and cap).
    public var retry: RetryPolicy
    /// How long a throttled provider is parked when it did not say. Default 5 seconds.
    public var defaultPark: Duration
    /// A `retry-after` longer than this is not waited for in-process; the provider is parked instead. Default 60
    /// seconds, the SDKs' own limit.
    public var longestInProcessWait: Duration

    /// Creates a policy; every argument has the default stated on its property.
    public init(
        retry: RetryPolicy = .exponentialJitter(maxAttempts: 3, baseDelay: .milliseconds(500), maxDelay: .seconds(8)),
        defaultPark: Duration = .seconds(5), longestInProcessWait: Duration = .seconds(60)
    ) {
        self.retry = retry
        self.defaultPark = defaultPark
        self.longestInProcessWait = longestInProcessWait
    }

    /// The decision after `attempt` calls (counting from 1) to one provider, the last of which failed with `error`.
    /// - Parameter unitRandom: uniform in `0..<1`, for the jitter.
    public func decide(_ error: ProviderError, attempt: Int, unitRandom: Double) -> Decision {
        if error.isThrottling && error.isRetryable {
            return .park(for: error.retryAfter ?? self.defaultPark)
        }
        if error.kind == .authentication || error.kind == .quotaExhausted {
            return .disable
        }
        guard error.isRetryable else {
            return .fail
        }
        guard attempt < self.retry.maxAttempts else {
            return .nextProvider
        }
        if let asked = error.retryAfter, asked > .zero {
            return asked <= self.longestInProcessWait ? .retry(after: asked) : .park(for: asked)
        }
        return .retry(after: self.retry.delay(afterAttempt: attempt, unitRandom: unitRandom))
    }
}
