import Foundation
import KilnCore
import KilnJSON
import KilnQueue
import KilnStore

/// A job as the API shows it to its owner: the body of `POST /v1/jobs`, `GET /v1/jobs/{id}` and the cancel route, the
/// `Job` schema of `openapi.json`. Every member is always written; what a job does not have yet is `null`.
struct JobView: Encodable {
    /// One of the job's artifacts, with the address that serves its bytes.
    struct ArtifactLink: Encodable {
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

        enum CodingKeys: String, CodingKey {
            case name, size, sha256, url
            case contentType = "content_type"
        }
    }

    /// Why the job failed.
    struct Failure: Encodable {
        let code: String
        let message: String
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

    enum CodingKeys: String, CodingKey {
        case id, kind, status, priority, attempt, progress, result, error, artifacts
        case maxAttempts = "max_attempts"
        case createdAt = "created_at"
        case startedAt = "started_at"
        case finishedAt = "finished_at"
        case cancelRequested = "cancel_requested"
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id.rawValue, forKey: .id)
        try container.encode(kind, forKey: .kind)
        try container.encode(state.rawValue, forKey: .status)
        try container.encode(priority.rawValue, forKey: .priority)
        try container.encode(attempt, forKey: .attempt)
        try container.encode(maxAttempts, forKey: .maxAttempts)
        try container.encode(Self.time(createdAt), forKey: .createdAt)
        // Optionals are written as `null`, not left out: apps read every member.
        try container.encode(startedAt.map(Self.time), forKey: .startedAt)
        try container.encode(finishedAt.map(Self.time), forKey: .finishedAt)
        try container.encode(progress.flatMap(JSONValue.parse), forKey: .progress)
        try container.encode(result.flatMap(JSONValue.parse), forKey: .result)
        try container.encode(errorCode.map { Failure(code: $0, message: errorMessage ?? "") }, forKey: .error)
        try container.encode(cancelRequested, forKey: .cancelRequested)
        try container.encode(artifacts.map { ArtifactLink($0, job: id) }, forKey: .artifacts)
    }

    /// How every answer writes a time: ISO 8601 with milliseconds.
    static func time(_ date: Date) -> String {
        date.formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true))
    }
}
