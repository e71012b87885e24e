import KilnCore
public import KilnQueue
import Foundation
import Locking

/// What a handler may do besides returning its result: report progress and stream text, fenced by its attempt.
/// Progress and text are best-effort (``AttemptEvents``): sending them never waits, and a handler never fails because
/// Redis was away for a moment; its events wait for it.
public struct JobContext: Sendable {
    let queue: any WorkSource
    let records: any WorkerRecords
    public let job: ClaimedJob
    /// This attempt's progress and text, on their way to the job's stream.
    let events: AttemptEvents
    /// Whether this attempt has streamed text yet.
    private let streamed = StreamMark()

    /// A context for one attempt of `job`: its events go to `queue`, its artifacts to `records`. The worker makes one
    /// per attempt it runs; tests and other runners make their own, over fakes of the two protocols.
    public init(queue: any WorkSource, records: any WorkerRecords, job: ClaimedJob) {
        self.queue = queue
        self.records = records
        self.job = job
        self.events = AttemptEvents(queue: queue, job: job.id, attempt: job.attempt)
    }

    /// Reports progress in `0...1`, with an optional short message.
    public func progress(_ fraction: Double, message: String? = nil) {
        events.send(.progress(fraction: fraction, message: message))
    }

    /// Streams a piece of generated text to the job's listeners; `choice` tells apart the answers of a job that asked
    /// for several (it is left out for the first). The first text of a retried attempt is preceded by a `retract`
    /// (reason `retry`): what an earlier attempt streamed before it failed is withdrawn, so a listener that follows the
    /// rule "after a retract, drop what you showed" never shows the text twice.
    public func delta(_ text: String, choice: Int = 0) {
        if job.attempt > 1, streamed.markFirst() { retract(reason: "retry") }
        events.send(.delta(text: text, choice: choice))
    }

    /// Tells the job's listeners that the text streamed so far was withdrawn (the safety filter refused it) and that
    /// any text that follows replaces it.
    public func retract(reason: String) {
        events.send(.retract(reason: reason))
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
    private let marked = Locked(false)

    /// True for the first call only.
    func markFirst() -> Bool {
        marked.withLock { marked in
            defer { marked = true }
            return !marked
        }
    }
}
