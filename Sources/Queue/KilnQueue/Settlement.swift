public import KilnCore

/// How an attempt ended, reported to the queue.
public struct Settlement: Sendable {
    public enum Outcome: Sendable {
        /// `result` is JSON text.
        case succeeded(result: String)
        /// Retried after `delay`, or dead once attempts run out.
        case retry(code: String, message: String, delay: Duration)
        /// Permanent: straight to the dead-letter set.
        case failed(code: String, message: String)
        case cancelled(message: String)
        /// Retried after `delay` without spending the attempt.
        case throttled(code: String, message: String, delay: Duration)
        /// Handed back unstarted or unfinished at shutdown, to the head of its queue, attempt unspent.
        case released
    }

    public let job: JobID
    public let attempt: Int
    public let outcome: Outcome

    public init(job: JobID, attempt: Int, outcome: Outcome) {
        self.job = job
        self.attempt = attempt
        self.outcome = outcome
    }

    /// The JSON text the attempt succeeded with.
    public var result: String? {
        if case .succeeded(let result) = outcome { result } else { nil }
    }

}
