import Hummingbird

/// Authenticates every request of the `/v1` routes that act for an end user: the tenant's API key, then the end user's
/// identity as the tenant's identity modes verify it (``Authenticator``), before the route runs. The caller goes on the
/// request context, so no route can forget to authenticate or do it differently.
struct AuthenticationMiddleware<Context: CallerRequestContext>: RouterMiddleware {
    let authenticator: Authenticator

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var context = context
        context.caller = try await authenticator.caller(of: request)
        return try await next(request, context)
    }
}
