import Foundation
import Hummingbird
import KilnStore

/// Signing in with an operator's token, for a session cookie, and signing out.
struct SignInRoutes {
    let dependencies: ConsoleDependencies
    let configuration: ConsoleConfiguration
    let renderer: ConsoleRenderer

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
        guard let token = form["token"],
            let session = try await dependencies.operators.signIn(token: token, lifetime: configuration.sessionLifetime)
        else {
            // Failed sign-ins are audited too, so someone trying tokens shows up.
            try await dependencies.audit.record(operator: "-", action: "sign-in", target: "console", outcome: "refused: unknown token")
            return renderer.page(
                "login", title: "Sign in", model: Model(next: next, error: "That token is not an active operator's."), session: nil,
                request: request, status: .unauthorized)
        }
        try await dependencies.audit.record(operator: session.operator.name, action: "sign-in", target: "console", outcome: "done")
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
        try await dependencies.audit.record(operator: session.operator.name, action: "sign-out", target: "console", outcome: "done")
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
