import KilnCore
public import KilnQueue

/// Runs one kind of job. Delivery is at least once, so a handler must be idempotent by job id.
public protocol JobHandler: Sendable {
    /// Does the work and returns the result as JSON text; throws ``JobFailure`` to say what should happen next
    /// (any other error is retried). Must stop soon after its task is cancelled.
    func run(_ job: ClaimedJob, context: JobContext) async throws -> String
}
