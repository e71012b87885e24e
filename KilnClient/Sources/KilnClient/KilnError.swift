import Foundation
public import JobVocabulary

/// Every failure the client reports: a refusal of the server (its problem's `code`, `field`, `upgrade_available`,
/// `retry_after_s`), a job that ended without a result (its error's code), or no answer at all.
///
/// Codes of the server are in the error table of Kiln's docs/api.md; the client's own are `connection_failed` (no answer, or an
/// answer cut off), `invalid_answer` (an answer the client cannot read), and for a job that ended without succeeding its
/// error's code (`invalid_model_output`, `content_filtered`, …) or, when it has none, its state (`cancelled`).
public struct KilnError: Error, Sendable, CustomStringConvertible {
    /// The machine-readable reason.
    public let code: String
    /// The HTTP status of a refusal; nil when the server did not refuse (a job that failed, no answer).
    public let status: Int?
    /// What happened, for people.
    public let detail: String
    /// The input field at fault, as a dotted path (`input.conversation.messages[3].text`).
    public let field: String?
    /// Whether another tier allows what was refused: show the upgrade screen.
    public let upgradeAvailable: Bool
    /// When to try again (`Retry-After`), for 429 and 503; the client already waited as long as its budget allowed.
    public let retryAfter: Duration?
    /// The job concerned: the one that ended without a result, or the one an `Idempotency-Key` already made.
    public let jobID: JobID?
    /// How the job ended, for a job that ended without a result.
    public let jobState: JobState?

    public init(
        code: String, status: Int? = nil, detail: String, field: String? = nil, upgradeAvailable: Bool = false, retryAfter: Duration? = nil,
        jobID: JobID? = nil, jobState: JobState? = nil
    ) {
        self.code = code
        self.status = status
        self.detail = detail
        self.field = field
        self.upgradeAvailable = upgradeAvailable
        self.retryAfter = retryAfter
        self.jobID = jobID
        self.jobState = jobState
    }

    public var description: String {
        var text = status.map { "\($0) \(code)" } ?? code
        if let field { text += " (\(field))" }
        return "\(text): \(detail)"
    }
}

extension KilnError {
    /// The RFC 9457 problem a refusal carries.
    struct Problem: Decodable {
        let code: String
        let detail: String?
        let field: String?
        let upgradeAvailable: Bool?
        let retryAfterSeconds: Int?
        let jobID: JobID?

        enum CodingKeys: String, CodingKey {
            case code, detail, field
            case upgradeAvailable = "upgrade_available"
            case retryAfterSeconds = "retry_after_s"
            case jobID = "job_id"
        }
    }

    /// The refusal in an answer of `status`: its problem when it has one, else the status alone.
    init(status: Int, body: Data, retryAfter: Duration?) {
        guard let problem = try? JSONDecoder().decode(Problem.self, from: body) else {
            self.init(code: "http_\(status)", status: status, detail: String(decoding: body.prefix(500), as: UTF8.self), retryAfter: retryAfter)
            return
        }
        self.init(
            code: problem.code, status: status, detail: problem.detail ?? "", field: problem.field,
            upgradeAvailable: problem.upgradeAvailable ?? false,
            retryAfter: retryAfter ?? problem.retryAfterSeconds.map { .seconds($0) }, jobID: problem.jobID)
    }

    /// No answer came, or it broke off.
    static func connectionFailed(_ error: any Error) -> KilnError {
        KilnError(code: "connection_failed", detail: "\(error)")
    }

    /// An answer the client cannot read as what the route promises.
    static func invalidAnswer(_ what: String) -> KilnError {
        KilnError(code: "invalid_answer", detail: what)
    }
}
