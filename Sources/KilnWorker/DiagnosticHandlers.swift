import Foundation
public import KilnCore
public import KilnQueue

/// `diag.echo`: answers with its input and the moment the handler started, in microseconds (for latency benchmarks);
/// with `artifact` in its input, also stores that text as the artifact `echo.txt`.
public struct EchoHandler: JobHandler {
    public init() {}

    public func run(_ job: ClaimedJob, context: JobContext) async throws -> String {
        let started = Int64(Date().timeIntervalSince1970 * 1_000_000)
        if case .string(let text)? = JSONValue.parse(job.input)?["artifact"] {
            try await context.saveArtifact("echo.txt", contentType: "text/plain; charset=utf-8", bytes: Array(text.utf8))
        }
        return #"{"echo":\#(job.input),"started_at_us":\#(started)}"#
    }
}

/// `diag.sleep`: sleeps in steps, reporting progress after each, and stops as soon as it is cancelled.
public struct SleepHandler: JobHandler {
    public init() {}

    public func run(_ job: ClaimedJob, context: JobContext) async throws -> String {
        let input = try JSONValue.parse(job.input).map { try $0.decode(as: SleepInput.self) }
        guard let input else { throw JobFailure.permanent(code: "invalid_input", message: "input is not JSON") }
        let steps = input.progressSteps ?? 10
        let step = Duration.milliseconds(Int64(input.seconds * 1000 / Double(steps)))
        for index in 1...steps {
            try await Task.sleep(for: step)
            try await context.progress(Double(index) / Double(steps))
        }
        return #"{"slept_seconds":\#(input.seconds)}"#
    }
}

/// `diag.fail`: fails its first `times` attempts (every one when absent), retryably or permanently.
public struct FailHandler: JobHandler {
    public init() {}

    public func run(_ job: ClaimedJob, context: JobContext) async throws -> String {
        let input = try JSONValue.parse(job.input).map { try $0.decode(as: FailInput.self) }
        guard let input else { throw JobFailure.permanent(code: "invalid_input", message: "input is not JSON") }
        if let times = input.times, job.tries > times {
            return #"{"succeeded_on_try":\#(job.tries)}"#
        }
        let message = "failing on purpose (try \(job.tries))"
        if input.permanent == true { throw JobFailure.permanent(code: "diag_failure", message: message) }
        throw JobFailure.retryable(code: "diag_failure", message: message)
    }
}
