import HTTPTypes
import Hummingbird

/// Answers a path the API has, asked with a method it does not take, `405 method_not_allowed` with `Allow` naming the
/// methods it takes (RFC 9110 §15.5.6), where the router alone answers `404`. Added to the router after every route,
/// so it wraps only the router's answer to a request that no route takes.
struct MethodNotAllowedMiddleware<Context: RequestContext>: RouterMiddleware {
    /// Each path's methods, in the order `Allow` names them.
    private let routes: [(path: RouterPath, methods: [HTTPRequest.Method])]

    init(routes: [Router<Context>.RouteDescription]) {
        var paths: [RouterPath] = []
        var methods: [String: [HTTPRequest.Method]] = [:]
        for route in routes {
            if methods[route.path.description] == nil { paths.append(route.path) }
            methods[route.path.description, default: []].append(route.method)
        }
        self.routes = paths.map { path in (path, (methods[path.description] ?? []).sorted { $0.rawValue < $1.rawValue }) }
    }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        do {
            return try await next(request, context)
        } catch let error as HTTPError where error.status == .notFound {
            let allowed = methods(of: request.uri.path)
            guard !allowed.isEmpty else { throw error }
            let allow = allowed.map(\.rawValue).joined(separator: ", ")
            var problem = Problem(.methodNotAllowed, "method_not_allowed", "this path takes \(allow), not \(request.method.rawValue)")
            problem.headers[.allow] = allow
            throw problem
        }
    }

    /// The methods of the route whose path matches `path`, none when no route's does.
    private func methods(of path: String) -> [HTTPRequest.Method] {
        let segments = path.split(separator: "/")
        let route = routes.first { route in
            route.path.components.count == segments.count && zip(route.path.components, segments).allSatisfy { $0 ~= $1 }
        }
        return route?.methods ?? []
    }
}
