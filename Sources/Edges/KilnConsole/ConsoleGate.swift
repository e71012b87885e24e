import Foundation
import HTTPTypes
import Hummingbird
import KilnStore

/// Lets a request into the console only with a live session, and an action only with the session's CSRF token from a
/// page of the console's own and an operator's role: a viewer's action is refused here, whatever the page showed.
/// Refused actions are written to the audit log too.
struct ConsoleGate: RouterMiddleware {
    typealias Context = ConsoleRequestContext

    let dependencies: ConsoleDependencies
    let configuration: ConsoleConfiguration

    /// Paths anyone may fetch: the sign-in form and the style sheet and script it uses.
    static func isOpen(_ path: String) -> Bool {
        path == "/console/login" || path.hasPrefix("/console/static/")
    }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let path = request.uri.path
        var context = context
        if let header = configuration.clientAddressHeader, let name = HTTPField.Name(header), let forwarded = request.headers[name] {
            context.clientAddress = forwarded.split(separator: ",").first.map { String($0).trimmingCharacters(in: .whitespaces) } ?? ""
        }
        guard !Self.isOpen(path) else { return try await next(request, context) }
        guard let secret = request.cookies[SessionSecret.cookieName]?.value, !secret.isEmpty,
            let signedIn = try await dependencies.operators.session(secret: secret)
        else {
            // A page asked without a session comes back after signing in; an action is not replayed.
            let back =
                request.method == .get ? "?next=" + (request.uri.description.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "") : ""
            return .redirect(to: "/console/login" + back)
        }
        context.session = SignedIn(operator: signedIn, secret: secret)
        guard request.method == .post else { return try await next(request, context) }
        var request = request
        let form = try await FormBody.read(request)
        request.body = .init(buffer: ByteBuffer(string: ""))
        context.form = form
        let session = try context.signedIn()
        if let refusal = refusal(of: request, form: form, session: session) {
            try await dependencies.audit.record(
                operator: session.operator.name, action: path, target: form["target"] ?? "", outcome: "refused: \(refusal.message)",
                address: context.clientAddress)
            throw refusal
        }
        return try await next(request, context)
    }

    /// Why an action may not go ahead: a missing or wrong CSRF token, another site's origin, or a viewer acting.
    private func refusal(of request: Request, form: FormBody, session: SignedIn) -> ConsoleRefusal? {
        if let origin = request.headers[.origin], !Self.isOwnOrigin(origin, request: request, configuration: configuration) {
            return ConsoleRefusal(.forbidden, "the form came from another site (\(origin))")
        }
        guard let token = form["csrf"], SessionSecret.matches(token, session.csrfToken) else {
            return ConsoleRefusal(.forbidden, "the form's CSRF token is missing or stale: reload the page and try again")
        }
        if request.uri.path != "/console/logout", !session.operator.mayAct {
            return ConsoleRefusal(.forbidden, "a viewer may look but not act: ask an operator")
        }
        return nil
    }

    /// Whether `origin` is the console's: its configured public URL's, or the one the browser asked it by.
    static func isOwnOrigin(_ origin: String, request: Request, configuration: ConsoleConfiguration) -> Bool {
        let configured = URL(string: configuration.publicURL).map { "\($0.scheme ?? "http")://\($0.host ?? "")\($0.port.map { ":\($0)" } ?? "")" }
        return origin == configured || request.head.authority.map { origin == "http://\($0)" || origin == "https://\($0)" } == true
    }
}
