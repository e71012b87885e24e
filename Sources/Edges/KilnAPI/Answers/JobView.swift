import Foundation
import KilnCore
import KilnJSON
import KilnQueue
import KilnStore

/// A job as the API shows it to its owner: the body of `POST /v1/jobs`, `GET /v1/jobs/{id}` and the cancel route, the
/// `Job` schema of `openapi.json`. Every member is always written; what a job does not have yet is `null`.
struct JobView: DocumentAnswer {
    /// One of the job's artifacts, with the address that serves its bytes.
    struct ArtifactLink {
        let name: String
        let contentType: String
        let size: Int
        let sha256: String
        let url: String

        init(_ artifact: Artifact, job: JobID) {
            name = artifact.name
            contentType = artifact.contentType
            size = artifact.size
            sha256 = artifact.sha256
            url = "/v1/jobs/\(job)/artifacts/\(artifact.name)"
        }

        var document: JSONValue {
            .object([
                "name": .string(name), "content_type": .string(contentType), "size": .number(Double(size)), "sha256": .string(sha256),
                "url": .string(url),
            ])
        }
    }

    var id: JobID
    var kind: String
    var state: JobState
    var priority: Priority
    var attempt: Int
    var maxAttempts: Int
    var createdAt: Date
    var startedAt: Date?
    var finishedAt: Date?
    /// The latest progress report, as JSON text.
    var progress: String?
    /// The result, as JSON text.
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

    /// The job `id` just queued from `submission`: it has the time it was answered, since Redis's own is not sent back.
    init(_ submission: Submission, id: JobID) {
        self.id = id
        kind = submission.kind
        state = .queued
        priority = submission.priority
        attempt = 0
        maxAttempts = submission.maxAttempts
        createdAt = Date()
    }

    /// The answer's members: written by hand, since it answers every submission and JSONEncoder costs several times as
    /// much. Optionals are written as `null`, not left out: apps read every member.
    var members: [(key: String, value: JSONValue)] {
        [
            ("id", .string(id.rawValue)),
            ("kind", .string(kind)),
            ("status", .string(state.rawValue)),
            ("priority", .string(priority.rawValue)),
            ("attempt", .number(Double(attempt))),
            ("max_attempts", .number(Double(maxAttempts))),
            ("created_at", .string(Self.time(createdAt))),
            ("started_at", startedAt.map { .string(Self.time($0)) } ?? .null),
            ("finished_at", finishedAt.map { .string(Self.time($0)) } ?? .null),
            ("progress", progress.flatMap(JSONValue.parse) ?? .null),
            ("result", result.flatMap(JSONValue.parse) ?? .null),
            ("error", errorCode.map { .object(["code": .string($0), "message": .string(errorMessage ?? "")]) } ?? .null),
            ("cancel_requested", .bool(cancelRequested)),
            ("artifacts", .array(artifacts.map { ArtifactLink($0, job: id).document })),
        ]
    }

    /// How every answer writes a time: ISO 8601 with milliseconds.
    static func time(_ date: Date) -> String {
        date.formatted(timeStyle)
    }

    /// Made once: making a format style costs about as much as writing a time with it.
    private static let timeStyle = Date.ISO8601FormatStyle(includingFractionalSeconds: true)
}
