import KilnCore
public import KilnQueue
public import KilnWorker

/// `diag.sleep`: sleeps in steps, reporting progress after each, and stops as soon as it is cancelled.
public struct SleepHandler: JobHandler {
    public init() {}

    public func run(_ job: ClaimedJob, context: JobContext) async throws -> String {
        let input = try job.input(as: SleepInput.self)
        let steps = input.progressSteps ?? 10
        let step = Duration.milliseconds(Int64(input.seconds * 1000 / Double(steps)))
        for index in 1...steps {
            try await Task.sleep(for: step)
            context.progress(Double(index) / Double(steps))
        }
        return #"{"slept_seconds":\#(input.seconds)}"#
    }
}
