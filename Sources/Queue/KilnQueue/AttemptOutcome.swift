import KilnCore

/// How an attempt that a worker settled ended, as the fleet's throughput and the failure metrics count it.
public enum AttemptOutcome: String, Sendable, Hashable, CaseIterable, Codable {
    case succeeded
    /// Failed and will run again after its backoff.
    case retried
    /// Failed permanently.
    case failed
    /// Failed on its last attempt.
    case dead
    case cancelled

    /// What settling `settlement` did, as the settle answered (`settled`); nil for what is not counted: a throttled
    /// attempt (back-pressure, no attempt spent) and a hand-back.
    public init?(_ settlement: Settlement, settled: SettledAttempt) {
        switch settled.state {
        case .succeeded: self = .succeeded
        case .failed: self = .failed
        case .dead: self = .dead
        case .cancelled: self = .cancelled
        case .retrying:
            guard case .retry = settlement.outcome else { return nil }
            self = .retried
        case .queued, .running: return nil
        }
    }

    /// Whether it is a failure of the job (retried, failed or dead).
    public var isFailure: Bool { self == .retried || self == .failed || self == .dead }
}
