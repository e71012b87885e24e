import HTTPTypes
import Hummingbird
import Logging
import NIOCore
import RedisClient

/// Turns every error into a problem answer: Redis down is 503 with `Retry-After` (fail closed), anything
/// unexpected a 500 whose detail tells nothing internal.
struct ProblemMiddleware<Context: RequestContext>: RouterMiddleware {
    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        do {
            return try await next(request, context)
        } catch let problem as Problem {
            return problem.response()
        } catch let error as RedisError where error.isUnavailable {
            context.logger.error("redis unavailable", metadata: ["error": "\(error)"])
            return Problem.redisUnavailable.response()
        } catch is NIOTooManyBytesError {
            return Problem(.contentTooLarge, "body_too_large", "the body is larger than this endpoint accepts").response()
        } catch let error as HTTPError {
            let code = error.status == .notFound ? "not_found" : error.status == .contentTooLarge ? "body_too_large" : "http_error"
            return Problem(error.status, code, error.body ?? error.status.reasonPhrase).response()
        } catch {
            context.logger.error("request failed", metadata: ["error": "\(error)"])
            return Problem(.internalServerError, "internal_error", "the server failed; the error was logged").response()
        }
    }
}
