import Foundation
import HTTPTypes
import Hummingbird
import KilnCore
import KilnJSON
import ServiceFailures

/// An RFC 9457 problem: the body of every error answer, with a stable machine-readable `code`. Routes throw it and
/// Hummingbird writes it, as it does any `HTTPResponseError`; ``ProblemMiddleware`` turns the other errors into one.
struct Problem: HTTPResponseError, Sendable {
    let status: HTTPResponse.Status
    let code: String
    let detail: String
    /// More members, e.g. `field` for invalid input.
    var extra: [String: JSONValue] = [:]
    var headers: HTTPFields = [:]

    init(_ status: HTTPResponse.Status, _ code: String, _ detail: String) {
        self.status = status
        self.code = code
        self.detail = detail
    }

    func response(from request: Request, context: some RequestContext) throws -> Response {
        var body = extra
        body["type"] = .string("https://kiln.dev/problems/\(code)")
        body["title"] = .string(status.reasonPhrase)
        body["status"] = .number(Double(status.code))
        body["code"] = .string(code)
        body["detail"] = .string(detail)
        var headers = self.headers
        headers[.contentType] = "application/problem+json"
        return Response(status: status, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(string: JSONValue.object(body).canonicalJSON())))
    }

    static func invalidInput(_ error: InputError) -> Problem {
        var problem = Problem(.badRequest, "invalid_input", "\(error.field) \(error.reason)")
        problem.extra["field"] = .string(error.field)
        return problem
    }

    /// The one answer to a backing service's outage, whichever route met it: `503` with `Retry-After`, its code naming
    /// the service. Kiln fails closed: nothing is admitted or answered from a guess while a service is out of reach.
    static func unavailable(_ service: BackingService) -> Problem {
        let (code, detail) =
            switch service {
            case .redis: ("queue_unavailable", "the queue is unreachable; try again shortly")
            case .postgres: ("database_unavailable", "PostgreSQL is unreachable")
            case .objectStore: ("storage_unavailable", "the object store is unreachable; try again shortly")
            }
        var problem = Problem(.serviceUnavailable, code, detail)
        problem.headers[.retryAfter] = "2"
        return problem
    }

    /// A failure the server did not expect; its detail tells nothing internal (the error itself is logged).
    static let internalError = Problem(.internalServerError, "internal_error", "the server failed; the error was logged")

    static let jobNotFound = Problem(.notFound, "job_not_found", "no such job")
}
