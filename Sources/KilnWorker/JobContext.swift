import KilnCore
import KilnJSON
public import KilnQueue
import Foundation
import Synchronization

/// What a handler may do besides returning its result: report progress and stream text, fenced by its attempt.
public struct JobContext: Sendable {
    let queue: any WorkSource
    let records: any WorkerRecords
    public let job: ClaimedJob
    /// Whether this attempt has streamed text yet.
    private let streamed = StreamMark()

    /// A context for one attempt of `job`: its events go to `queue`, its artifacts to `records`. The worker makes one
    /// per attempt it runs; tests and other runners make their own, over fakes of the two protocols.
    public init(queue: any WorkSource, records: any WorkerRecords, job: ClaimedJob) {
        self.queue = queue
        self.records = records
        self.job = job
    }

    /// Reports progress in `0...1`, with an optional short message.
    public func progress(_ fraction: Double, message: String? = nil) async throws {
        var fields: [String: JSONValue] = ["fraction": .number(min(max(fraction, 0), 1))]
        if let message { fields["message"] = .string(message) }
        let data = JSONValue.object(fields).canonicalJSON()
        try await queue.emit("progress", data: data, job: job.id, attempt: job.attempt, progress: data)
    }

    /// Streams a piece of generated text to the job's listeners; `choice` tells apart the answers of a job that asked
    /// for several (it is left out for the first). The first text of a retried attempt is preceded by a `retract`
    /// (reason `retry`): what an earlier attempt streamed before it failed is withdrawn, so a listener that follows the
    /// rule "after a retract, drop what you showed" never shows the text twice.
    public func delta(_ text: String, choice: Int = 0) async throws {
        if job.attempt > 1, streamed.markFirst() { try await retract(reason: "retry") }
        var fields: [String: JSONValue] = ["text": .string(text)]
        if choice > 0 { fields["choice"] = .number(Double(choice)) }
        try await queue.emit("delta", data: JSONValue.object(fields).canonicalJSON(), job: job.id, attempt: job.attempt, progress: nil)
    }

    /// Tells the job's listeners that the text streamed so far was withdrawn (the safety filter refused it) and that
    /// any text that follows replaces it.
    public func retract(reason: String) async throws {
        try await queue.emit(
            "retract", data: JSONValue.object(["reason": .string(reason)]).canonicalJSON(), job: job.id, attempt: job.attempt, progress: nil)
    }

    /// Stores a file the job produced, served to its owner at `/v1/jobs/{id}/artifacts/{name}`. Written to a temporary
    /// file and renamed, so a crash leaves no half-written artifact; a later attempt's artifact of the same name wins.
    /// Throws when this attempt no longer holds the job's lease.
    public func saveArtifact(_ name: String, contentType: String, bytes: [UInt8]) async throws {
        guard try await queue.holdsLease(job.id, attempt: job.attempt) else {
            throw JobFailure.retryable(code: "lease_lost", message: "this attempt no longer holds the job")
        }
        try await records.saveArtifact(job: job.id, tenant: job.tenant, attempt: job.attempt, name: name, contentType: contentType, bytes: bytes)
    }
}

/// Set once, by the first text an attempt streams.
private final class StreamMark: Sendable {
    private let marked = Mutex(false)

    /// True for the first call only.
    func markFirst() -> Bool {
        marked.withLock { marked in
            defer { marked = true }
            return !marked
        }
    }
}
