import Foundation
import KilnCore
import KilnJSON
import KilnQueue
import KilnStore

/// A job as the API shows it to its owner.
struct JobView {
    var id: JobID
    var kind: String
    var state: JobState
    var priority: Priority
    var attempt: Int
    var maxAttempts: Int
    var createdAt: Date
    var startedAt: Date?
    var finishedAt: Date?
    var progress: String?
    var result: String?
    var errorCode: String?
    var errorMessage: String?
    var cancelRequested = false
    var artifacts: [Artifact] = []

    init(_ job: JobSnapshot) {
        self.init(job.record)
        progress = job.progress
        cancelRequested = job.cancelRequested
    }

    init(_ job: JobRecord) {
        id = job.id
        kind = job.kind
        state = job.state
        priority = job.priority
        attempt = job.attempt
        maxAttempts = job.maxAttempts
        createdAt = job.createdAt
        startedAt = job.startedAt
        finishedAt = job.finishedAt
        result = job.result
        errorCode = job.errorCode
        errorMessage = job.errorMessage
    }

    init(_ submission: Submission) {
        id = submission.id
        kind = submission.kind
        state = .queued
        priority = submission.priority
        attempt = 0
        maxAttempts = submission.maxAttempts
        createdAt = Date()
    }

    var json: JSONValue {
        func time(_ date: Date?) -> JSONValue {
            date.map { .string($0.formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true))) } ?? .null
        }
        func document(_ text: String?) -> JSONValue { text.flatMap(JSONValue.parse) ?? .null }
        var error: JSONValue = .null
        if let errorCode {
            error = .object(["code": .string(errorCode), "message": .string(errorMessage ?? "")])
        }
        return .object([
            "id": .string(id.rawValue),
            "kind": .string(kind),
            "status": .string(state.rawValue),
            "priority": .string(priority.rawValue),
            "attempt": .number(Double(attempt)),
            "max_attempts": .number(Double(maxAttempts)),
            "created_at": time(createdAt),
            "started_at": time(startedAt),
            "finished_at": time(finishedAt),
            "progress": document(progress),
            "result": document(result),
            "error": error,
            "cancel_requested": .bool(cancelRequested),
            "artifacts": .array(
                artifacts.map { artifact in
                    .object([
                        "name": .string(artifact.name),
                        "content_type": .string(artifact.contentType),
                        "size": .number(Double(artifact.size)),
                        "sha256": .string(artifact.sha256),
                        "url": .string("/v1/jobs/\(id)/artifacts/\(artifact.name)"),
                    ])
                }),
        ])
    }
}
