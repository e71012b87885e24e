public import KilnCore
public import KilnQueue
import Foundation

/// What a handler may do besides returning its result: report progress and stream text, fenced by its attempt.
public struct JobContext: Sendable {
    let queue: JobQueue
    public let job: ClaimedJob

    /// Reports progress in `0...1`, with an optional short message.
    public func progress(_ fraction: Double, message: String? = nil) async throws {
        var fields: [String: JSONValue] = ["fraction": .number(min(max(fraction, 0), 1))]
        if let message { fields["message"] = .string(message) }
        let data = JSONValue.object(fields).canonicalJSON()
        try await queue.emit("progress", data: data, job: job.id, attempt: job.attempt, progress: data)
    }

    /// Streams a piece of generated text to the job's listeners.
    public func delta(_ text: String) async throws {
        try await queue.emit("delta", data: JSONValue.object(["text": .string(text)]).canonicalJSON(), job: job.id, attempt: job.attempt)
    }
}
