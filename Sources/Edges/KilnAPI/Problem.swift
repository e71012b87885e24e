import Foundation
import HTTPTypes
import Hummingbird
import KilnCore
import KilnJSON
import ServiceFailures

/// An RFC 9457 problem: the body of every error answer, with a stable machine-readable `code`. Routes throw it and
/// Hummingbird writes it, as it does any `HTTPResponseError`; ``ProblemMiddleware`` turns the other errors into one.
/// It is its own answer (the `Problem` schema), written by hand as every quota refusal is one: the five members every
/// problem has, then those of the problems that say more, each written only when set.
struct Problem: HTTPResponseError, DocumentAnswer, Sendable {
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

    /// The problem's members; a member that does not apply is left out.
    var members: [(key: String, value: JSONValue)] {
        var members: [(key: String, value: JSONValue)] = [
            ("type", .string("https://kiln.dev/problems/\(code)")), ("title", .string(status.reasonPhrase)),
            ("status", .number(Double(status.code))), ("code", .string(code)), ("detail", .string(detail)),
        ]
        if let field { members.append(("field", .string(field))) }
        if let category { members.append(("category", .string(category))) }
        if let jobID { members.append(("job_id", .string(jobID.rawValue))) }
        if let tier { members.append(("tier", .string(tier))) }
        if let upgradeAvailable { members.append(("upgrade_available", .bool(upgradeAvailable))) }
        quota?.add(to: &members)
        return members
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

    func add(to members: inout [(key: String, value: JSONValue)]) {
        members.append(("quota_class", .string(quotaClass)))
        members.append(("limit", limit.map { .number(Double($0)) } ?? .null))
        members.append(("used", .number(Double(used))))
        members.append(("pending", .number(Double(pending))))
        members.append(("remaining", remaining.map { .number(Double($0)) } ?? .null))
        members.append(("reset_at", .string(resetAt)))
        members.append(("reason", .string(reason)))
        members.append(("retry_after_s", .number(Double(retryAfterSeconds))))
        if let blockReason { members.append(("block_reason", .string(blockReason))) }
    }
}
