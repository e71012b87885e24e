import Foundation
import HTTPTypes
import Hummingbird
import KilnCore

/// An RFC 9457 problem: the body of every error answer, with a stable machine-readable `code`.
struct Problem: Error, Sendable {
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

    func response() -> Response {
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

    static let redisUnavailable: Problem = {
        var problem = Problem(.serviceUnavailable, "queue_unavailable", "the queue is unreachable; try again shortly")
        problem.headers[.retryAfter] = "2"
        return problem
    }()

    static let jobNotFound = Problem(.notFound, "job_not_found", "no such job")
}
