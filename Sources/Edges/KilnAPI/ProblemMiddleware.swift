import HTTPTypes
import Hummingbird
import Logging
import NIOCore
import ServiceFailures

/// Turns the errors that are not ``Problem``s into one, so that every error answer is `application/problem+json`. A
/// backing service out of reach is its 503 with `Retry-After` (fail closed); Hummingbird's own HTTP errors and a body
/// over the limit keep their status; anything unexpected is a 500 whose detail tells nothing internal.
///
/// A refusal (4xx) is answered here, as a response; a failure of the server (5xx) is thrown on, and Hummingbird writes
/// it as it does any `HTTPResponseError`. The metrics outside count both by the status the client gets
/// (`hb_requests`), and only what is thrown as an error (`hb_request_errors`): a client's mistake is not the server's.
struct ProblemMiddleware<Context: RequestContext>: RouterMiddleware {
    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let problem: Problem
        do {
            return try await next(request, context)
        } catch {
            problem = Self.problem(for: error, logger: context.logger)
        }
        guard problem.status.kind == .clientError else { throw problem }
        return try problem.response(from: request, context: context)
    }

    /// The problem an error is answered with, wherever it is answered (a route, an MCP tool).
    static func problem(for error: any Error, logger: Logger) -> Problem {
        switch error {
        case let problem as Problem:
            return problem
        case let error as any BackingServiceError where error.isUnavailable:
            logger.error("backing service unavailable", metadata: ["service": "\(error.service.rawValue)", "error": "\(error)"])
            return Problem.unavailable(error.service)
        case is NIOTooManyBytesError:
            return Problem(.contentTooLarge, "body_too_large", "the body is larger than this endpoint accepts")
        case let error as HTTPError:
            let detail = error.body ?? error.status.reasonPhrase
            switch error.status {
            case .notFound: return Problem(.notFound, "not_found", detail)
            case .contentTooLarge: return Problem(.contentTooLarge, "body_too_large", detail)
            default: return Problem(error.status, "http_error", detail)
            }
        default:
            logger.error("request failed", metadata: ["error": "\(error)"])
            return Problem.internalError
        }
    }
}
