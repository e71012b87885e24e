public import JobVocabulary

/// A job as `GET /v1/jobs/{id}` shows it (the `Job` schema of `openapi.json`), its result typed.
public struct Job<Result: Decodable & Sendable>: Decodable, Sendable {
    /// Why a job failed: `invalid_model_output`, `content_filtered`, `provider_*`, … (docs/kinds.md).
    public struct Failure: Decodable, Sendable, Equatable {
        public let code: String
        public let message: String
    }

    public let id: JobID
    public let kind: String
    public let status: JobState
    public let priority: String
    public let attempt: Int
    public let maxAttempts: Int
    public let createdAt: String
    public let startedAt: String?
    public let finishedAt: String?
    /// The latest progress report.
    public let progress: JobProgress?
    /// The result once it succeeded.
    public let result: Result?
    public let error: Failure?
    public let cancelRequested: Bool
    public let artifacts: [Artifact]

    enum CodingKeys: String, CodingKey {
        case id, kind, status, priority, attempt, progress, result, error, artifacts
        case maxAttempts = "max_attempts"
        case createdAt = "created_at"
        case startedAt = "started_at"
        case finishedAt = "finished_at"
        case cancelRequested = "cancel_requested"
    }

    /// What an unfinished job did not end with: the ``KilnError`` for a job that ended without succeeding.
    var endingFailure: KilnError {
        KilnError(
            code: error?.code ?? status.rawValue, detail: error?.message ?? "the job ended \(status.rawValue)", jobID: id, jobState: status)
    }
}

/// How far a job has come: a fraction of `0...1`, and perhaps a word on what it does.
public struct JobProgress: Codable, Sendable, Equatable {
    public let fraction: Double
    public let message: String?
}

/// A file a job made (a video, an image, a document), served to the job's owner.
public struct Artifact: Decodable, Sendable, Equatable {
    public let name: String
    public let contentType: String
    public let size: Int
    /// Lowercase hex.
    public let sha256: String
    /// The path that serves it.
    public let url: String

    enum CodingKeys: String, CodingKey {
        case name, size, sha256, url
        case contentType = "content_type"
    }
}
