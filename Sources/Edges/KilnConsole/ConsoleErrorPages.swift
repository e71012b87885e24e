import Hummingbird
import KilnStore
import Logging
import ServiceFailures

/// Every error a page or an action ends with becomes a page the operator can read, with the status it deserves: a
/// refusal's own, `503` when Redis or PostgreSQL is out of reach, `404` for a path the console does not have. An
/// operator who is signed in keeps the navigation and Sign out on it.
struct ConsoleErrorPages: RouterMiddleware {
    typealias Context = ConsoleRequestContext

    let renderer: ConsoleRenderer
    let dependencies: ConsoleDependencies

    struct Model {
        let message: String
    }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        do {
            return try await next(request, context)
        } catch let refusal as ConsoleRefusal {
            return await page(refusal, request: request, context: context)
        } catch let error as any BackingServiceError where error.isUnavailable {
            return await page(
                ConsoleRefusal(.serviceUnavailable, "\(error.service.rawValue) is unreachable; the page will work again once it answers"),
                request: request, context: context)
        } catch let error as HTTPError where error.status == .notFound || error.status == .methodNotAllowed {
            return await page(ConsoleRefusal(error.status, "the console has no such page"), request: request, context: context)
        } catch {
            context.logger.error("console page failed", metadata: ["path": "\(request.uri.path)", "error": "\(error)"])
            return await page(
                ConsoleRefusal(.internalServerError, "the console could not build this page; the error is in its log"), request: request,
                context: context)
        }
    }

    private func page(_ refusal: ConsoleRefusal, request: Request, context: Context) async -> Response {
        renderer.page(
            "error", title: "\(refusal.status.code) \(refusal.status.reasonPhrase)", model: Model(message: refusal.message),
            session: await session(of: request, context: context), request: request, status: refusal.status)
    }

    /// The signed-in operator, as the gate found them, or from the cookie when the error came before the gate did (a
    /// path the console does not have): none when PostgreSQL cannot say.
    private func session(of request: Request, context: Context) async -> SignedIn? {
        if let session = context.session { return session }
        guard let secret = request.cookies[SessionSecret.cookieName]?.value, !secret.isEmpty,
            let found = try? await dependencies.operators.session(secret: secret)
        else { return nil }
        return SignedIn(operator: found, secret: secret)
    }
}
