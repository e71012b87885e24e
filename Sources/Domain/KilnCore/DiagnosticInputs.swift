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

/// `diag.fail`: fails its first `times` attempts (every attempt when absent), counted across replays, then succeeds.
public struct FailInput: KindInput {
    public let times: Int?
    /// Fail permanently instead of retryably: no retries, straight to the dead-letter set.
    public let permanent: Bool?

    public func validate() throws {
        if let times, times < 0 { throw InputError(field: "input.times", reason: "must not be negative") }
    }
}

/// `diag.generate`: asks the text models routed to the tenant for `diag.generate`, streaming the answer to the job's
/// events; the simulator's fault directives in the prompt make it a test of the whole provider path.
public struct GenerateInput: KindInput {
    public let prompt: String
    public let system: String?
    /// Stream the answer as `delta` events (the default), or wait for it whole.
    public let stream: Bool?
    /// Default 256.
    public let maxTokens: Int?
    /// How many answers; default 1.
    public let choices: Int?

    enum CodingKeys: String, CodingKey {
        case prompt, system, stream, choices
        case maxTokens = "max_tokens"
    }

    public func validate() throws {
        guard !prompt.isEmpty, prompt.utf8.count <= 100_000 else {
            throw InputError(field: "input.prompt", reason: "must be between 1 and 100,000 bytes")
        }
        if let maxTokens, !(1...8192).contains(maxTokens) { throw InputError(field: "input.max_tokens", reason: "must be between 1 and 8192") }
        if let choices, !(1...4).contains(choices) { throw InputError(field: "input.choices", reason: "must be between 1 and 4") }
    }
}
