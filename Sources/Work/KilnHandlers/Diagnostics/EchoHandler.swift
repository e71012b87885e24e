import Foundation
import KilnJSON
public import KilnQueue
public import KilnWorker

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
