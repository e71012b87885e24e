import KilnCore
public import KilnQueue
public import KilnWorker

/// `diag.fail`: fails its first `times` attempts (every one when absent), retryably or permanently. Attempts count
/// across replays, so a job it dead-lettered succeeds when an operator replays it.
public struct FailHandler: JobHandler {
    public init() {}

    public func run(_ job: ClaimedJob, context: JobContext) async throws -> String {
        let input = try job.input(as: FailInput.self)
        if let times = input.times, job.attempt > times {
            return #"{"succeeded_on_attempt":\#(job.attempt)}"#
        }
        let message = "failing on purpose (attempt \(job.attempt))"
        if input.permanent == true { throw JobFailure.permanent(code: "diag_failure", message: message) }
        throw JobFailure.retryable(code: "diag_failure", message: message)
    }
}
