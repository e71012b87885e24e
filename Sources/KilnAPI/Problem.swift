import Foundation
import HTTPTypes
import Hummingbird
import KilnCore
import ServiceFailures

/// An RFC 9457 problem: the body of every error answer, with a stable machine-readable `code`. Routes throw it and
/// Hummingbird writes it, as it does any `HTTPResponseError`; ``ProblemMiddleware`` turns the other errors into one.
/// It is its own `Encodable` answer (the `Problem` schema): the five members every problem has, then those of the
/// problems that say more, each written only when set.
struct Problem: HTTPResponseError, Encodable, Sendable {
    let status: HTTPResponse.Status
    let code: String
    let detail: String
    /// The input field at fault (`invalid_input`, `unknown_kind`, `content_rejected`, `upgrade_required`).
    var field: String?
    /// The safety filter's category (`content_rejected`).
    var category: String?
    /// The job an idempotency key made already (`idempotency_conflict`).
    var jobID: JobID?
    /// The caller's tier (`upgrade_required`, and the quota's 429s).
    var tier: String?
    /// Whether another tier would allow what was refused.
    var upgradeAvailable: Bool?
    /// The quota's members of a 429 (``QuotaAnswers/denial(_:charge:upgradeAvailable:now:)``).
    var quota: QuotaDenialMembers?
    var headers: HTTPFields = [:]

    init(_ status: HTTPResponse.Status, _ code: String, _ detail: String) {
        self.status = status
        self.code = code
        self.detail = detail
    }

    func response(from request: Request, context: some RequestContext) throws -> Response {
        var headers = self.headers
        headers[.contentType] = "application/problem+json"
        return Response(status: status, headers: headers, body: ResponseBody(byteBuffer: try AnswerEncoding.bytes(of: self)))
    }

    enum CodingKeys: String, CodingKey {
        case type, title, status, code, detail, field, category, tier
        case jobID = "job_id"
        case upgradeAvailable = "upgrade_available"
        // A quota denial's.
        case quotaClass = "quota_class"
        case limit, used, pending, remaining, reason
        case resetAt = "reset_at"
        case retryAfterSeconds = "retry_after_s"
        case blockReason = "block_reason"
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode("https://kiln.dev/problems/\(code)", forKey: .type)
        try container.encode(status.reasonPhrase, forKey: .title)
        try container.encode(status.code, forKey: .status)
        try container.encode(code, forKey: .code)
        try container.encode(detail, forKey: .detail)
        try container.encodeIfPresent(field, forKey: .field)
        try container.encodeIfPresent(category, forKey: .category)
        try container.encodeIfPresent(jobID?.rawValue, forKey: .jobID)
        try container.encodeIfPresent(tier, forKey: .tier)
        try container.encodeIfPresent(upgradeAvailable, forKey: .upgradeAvailable)
        try quota?.encode(into: &container)
    }

    static func invalidInput(_ error: InputError) -> Problem {
        var problem = Problem(.badRequest, "invalid_input", "\(error.field) \(error.reason)")
        problem.field = error.field
        return problem
    }

    /// The one answer to a backing service's outage, whichever route met it: `503` with `Retry-After`, its code naming
    /// the service. Kiln fails closed: nothing is admitted or answered from a guess while a service is out of reach.
    static func unavailable(_ service: BackingService) -> Problem {
        var problem =
            switch service {
            case .redis: Problem(.serviceUnavailable, "queue_unavailable", "the queue is unreachable; try again shortly")
            case .postgres: Problem(.serviceUnavailable, "database_unavailable", "PostgreSQL is unreachable")
            case .objectStore: Problem(.serviceUnavailable, "storage_unavailable", "the object store is unreachable; try again shortly")
            }
        problem.headers[.retryAfter] = "2"
        return problem
    }

    /// A failure the server did not expect; its detail tells nothing internal (the error itself is logged).
    static let internalError = Problem(.internalServerError, "internal_error", "the server failed; the error was logged")

    static let jobNotFound = Problem(.notFound, "job_not_found", "no such job")
}

/// What a quota's 429 tells the app besides the problem's own members: the class, its limit and use (limit and
/// remaining `null` when unlimited), when it resets, why it was denied and how long to wait.
struct QuotaDenialMembers: Sendable {
    var quotaClass: String
    var limit: Int?
    var used: Int
    var pending: Int
    var remaining: Int?
    var resetAt: String
    var reason: String
    var retryAfterSeconds: Int
    var blockReason: String?

    func encode(into container: inout KeyedEncodingContainer<Problem.CodingKeys>) throws {
        try container.encode(quotaClass, forKey: .quotaClass)
        try container.encode(limit, forKey: .limit)
        try container.encode(used, forKey: .used)
        try container.encode(pending, forKey: .pending)
        try container.encode(remaining, forKey: .remaining)
        try container.encode(resetAt, forKey: .resetAt)
        try container.encode(reason, forKey: .reason)
        try container.encode(retryAfterSeconds, forKey: .retryAfterSeconds)
        try container.encodeIfPresent(blockReason, forKey: .blockReason)
    }
}
