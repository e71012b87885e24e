/// Why a handler did not succeed; the kind of failure decides what the queue does next.
public struct JobFailure: Error, Sendable, CustomStringConvertible {
    private enum Kind: Sendable {
        case retryable
        case permanent
        case throttled(retryAfter: Duration)
        case cancelled
        case contentFiltered
    }

    private let kind: Kind
    /// A stable machine-readable code, e.g. `diag_failure`, `deadline_exceeded`.
    public let code: String
    /// A human-readable reason, free of secrets and user data.
    public let message: String

    private init(kind: Kind, code: String, message: String) {
        self.kind = kind
        self.code = code
        self.message = message
    }

    /// A transient failure: retried with backoff until the kind's attempts run out.
    public static func retryable(code: String, message: String) -> JobFailure {
        JobFailure(kind: .retryable, code: code, message: message)
    }

    /// Retrying cannot help: the job goes straight to the dead-letter set.
    public static func permanent(code: String, message: String) -> JobFailure {
        JobFailure(kind: .permanent, code: code, message: message)
    }

    /// Back-pressure from a dependency: rescheduled after `retryAfter` without spending an attempt.
    public static func throttled(retryAfter: Duration, code: String = "throttled", message: String) -> JobFailure {
        JobFailure(kind: .throttled(retryAfter: retryAfter), code: code, message: message)
    }

    /// The job was cancelled by its owner.
    public static let cancelled = JobFailure(kind: .cancelled, code: "cancelled", message: "the job was cancelled")

    /// The input or output was rejected by the safety filter.
    public static func contentFiltered(message: String) -> JobFailure {
        JobFailure(kind: .contentFiltered, code: "content_filtered", message: message)
    }

    public var isRetryable: Bool {
        if case .retryable = kind { return true }
        return false
    }

    public var isCancellation: Bool {
        if case .cancelled = kind { return true }
        return false
    }

    /// The wait a throttled failure asks for, nil for any other failure.
    public var throttleDelay: Duration? {
        if case .throttled(let delay) = kind { return delay }
        return nil
    }

    public var description: String { "\(code): \(message)" }
}
