import Hummingbird
import Logging

/// A request context that carries the caller: ``AuthenticationMiddleware`` establishes it in front of the `/v1`
/// routes that need credentials, and those routes read it instead of each authenticating on its own.
protocol CallerRequestContext: RequestContext {
    /// Who is calling; nil until the authentication middleware has run, and on the routes without credentials.
    var caller: Caller? { get set }
}

extension CallerRequestContext {
    /// The caller the authentication middleware established. Only a route registered outside the authenticated group
    /// finds none: a mistake in the router, answered as the server's failure, never as someone's data.
    func requireCaller() throws -> Caller {
        guard let caller else {
            logger.error("route without authentication", metadata: ["http.path": "\(endpointPath ?? "")"])
            throw Problem.internalError
        }
        return caller
    }
}
