import Foundation
import Hummingbird
import KilnStore

/// Signing in with an operator's token, for a session cookie, and signing out. Failed sign-ins are throttled per client
/// address (``SignInThrottle``).
struct SignInRoutes {
    let dependencies: ConsoleDependencies
    let configuration: ConsoleConfiguration
    let renderer: ConsoleRenderer
    let throttle: SignInThrottle

    struct Model {
        let next: String
        let error: String?
    }

    func register(on router: Router<ConsoleRequestContext>) {
        router.get("/console/login", use: form)
        router.post("/console/login", use: signIn)
        router.post("/console/logout", use: signOut)
    }

    @Sendable func form(_ request: Request, context: ConsoleRequestContext) async throws -> Response {
        renderer.page(
            "login", title: "Sign in", model: Model(next: Self.safeNext(request.uri.queryParameters["next"].map(String.init)), error: nil),
            session: nil, request: request)
    }

    @Sendable func signIn(_ request: Request, context: ConsoleRequestContext) async throws -> Response {
        // Another site may not sign a browser in either (into its own account, to watch what it does).
        if let origin = request.headers[.origin], !ConsoleGate.isOwnOrigin(origin, request: request, configuration: configuration) {
            throw ConsoleRefusal(.forbidden, "the form came from another site (\(origin))")
        }
        let form = try await FormBody.read(request)
        let next = Self.safeNext(form["next"])
        let address = context.clientAddress
        if let wait = throttle.wait(for: address) {
            let minutes = max(Int(wait.components.seconds + 59) / 60, 1)
            var response = renderer.page(
                "login", title: "Sign in",
                model: Model(next: next, error: "Too many failed sign-ins from this address: try again in \(minutes) min."), session: nil,
                request: request, status: .tooManyRequests)
            response.headers[.retryAfter] = String(max(wait.components.seconds, 1))
            return response
        }
        guard let token = form["token"],
            let session = try await dependencies.operators.signIn(token: token, lifetime: configuration.sessionLifetime)
        else {
            // Failed sign-ins are audited too, so someone trying tokens shows up; an address made to wait, once.
            let outcome = throttle.failed(address) ? "refused: unknown token; this address waits" : "refused: unknown token"
            try await dependencies.audit.record(operator: "-", action: "sign-in", target: "console", outcome: outcome, address: address)
            return renderer.page(
                "login", title: "Sign in", model: Model(next: next, error: "That token is not an active operator's."), session: nil,
                request: request, status: .unauthorized)
        }
        throttle.succeeded(address)
        try await dependencies.audit.record(operator: session.operator.name, action: "sign-in", target: "console", outcome: "done", address: address)
        var response = Response.redirect(to: next)
        response.setCookie(
            Cookie(
                name: SessionSecret.cookieName, value: session.secret, maxAge: Int(configuration.sessionLifetime.components.seconds),
                path: "/console", secure: configuration.secureCookies, httpOnly: true, sameSite: .strict))
        return response
    }

    @Sendable func signOut(_ request: Request, context: ConsoleRequestContext) async throws -> Response {
        let session = try context.signedIn()
        try await dependencies.operators.signOut(secret: session.secret)
        try await dependencies.audit.record(
            operator: session.operator.name, action: "sign-out", target: "console", outcome: "done", address: context.clientAddress)
        var response = Response.redirect(to: "/console/login")
        response.setCookie(
            Cookie(
                name: SessionSecret.cookieName, value: "", maxAge: 0, path: "/console", secure: configuration.secureCookies, httpOnly: true,
                sameSite: .strict))
        return response
    }

    /// Where to go after signing in: a console path only, never another site.
    static func safeNext(_ next: String?) -> String {
        guard let next, next.hasPrefix("/console"), !next.hasPrefix("//"), !next.contains("\\") else { return "/console" }
        return next
    }
}
