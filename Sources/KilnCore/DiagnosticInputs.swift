/// `diag.echo`: returns its input, with the time the handler started.
public struct EchoInput: KindInput {
    public let message: String?
    /// Stored as the job's artifact `echo.txt` when present.
    public let artifact: String?
}

/// `diag.sleep`: sleeps, reporting progress, and stops at once when cancelled.
public struct SleepInput: KindInput {
    public let seconds: Double
    /// How many progress events to emit along the way.
    public let progressSteps: Int?
    /// A deadline shorter than the kind's, to exercise deadlines in tests.
    public let timeoutSeconds: Double?

    enum CodingKeys: String, CodingKey {
        case seconds
        case progressSteps = "progress_steps"
        case timeoutSeconds = "timeout_seconds"
    }

    public func validate() throws {
        guard seconds >= 0, seconds <= 3600 else { throw InputError(field: "input.seconds", reason: "must be between 0 and 3600") }
        if let progressSteps, !(1...1000).contains(progressSteps) {
            throw InputError(field: "input.progress_steps", reason: "must be between 1 and 1000")
        }
        if let timeoutSeconds, !(timeoutSeconds > 0 && timeoutSeconds <= 3600) {
            throw InputError(field: "input.timeout_seconds", reason: "must be between 0 and 3600")
        }
    }

    public var requestedDeadline: Duration? { timeoutSeconds.map { .milliseconds(Int64($0 * 1000)) } }
}

/// `diag.fail`: fails its first `times` attempts (every attempt when absent), then succeeds.
public struct FailInput: KindInput {
    public let times: Int?
    /// Fail permanently instead of retryably: no retries, straight to the dead-letter set.
    public let permanent: Bool?

    public func validate() throws {
        if let times, times < 0 { throw InputError(field: "input.times", reason: "must not be negative") }
    }
}
