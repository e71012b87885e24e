import Foundation
import HTTPTypes
import Hummingbird
import KilnStore
import Mustache

/// The console's pages: each page's template rendered with its model, then set in the layout (title, navigation, who
/// is signed in, a notice after an action). Mustache escapes every value it prints, so nothing a tenant submitted can
/// become markup.
struct ConsoleRenderer: Sendable {
    /// The navigation, in order: path and label.
    static let sections: [(path: String, label: String)] = [
        ("/console", "Overview"), ("/console/jobs", "Jobs"), ("/console/dead", "Dead letters"), ("/console/tenants", "Tenants"),
        ("/console/identities", "Quotas"), ("/console/blocks", "Abuse"), ("/console/providers", "Providers"),
        ("/console/audit", "Audit"),
    ]

    private let library: MustacheLibrary

    /// Loads the templates shipped with the module.
    static func load() async throws -> ConsoleRenderer {
        guard let directory = Bundle.module.resourceURL?.appendingPathComponent("Templates") else {
            throw ConsoleRefusal(.internalServerError, "the console's templates are missing from its bundle")
        }
        return ConsoleRenderer(library: try await MustacheLibrary(directory: directory.path))
    }

    private init(library: MustacheLibrary) {
        self.library = library
    }

    /// The template `name` with `model`, alone: the overview's live part sent again over its event stream.
    func fragment(_ name: String, _ model: Any) -> String {
        library.render(model, withTemplate: name) ?? ""
    }

    /// A whole page: `name`'s template with `model`, in the layout.
    func page(
        _ name: String, title: String, model: Any, session: SignedIn?, request: Request, status: HTTPResponse.Status = .ok
    ) -> Response {
        let path = request.uri.path
        let layout = Layout(
            title: title, content: fragment(name, model), signedIn: session.map(Viewer.init),
            notice: ConsoleNotice.shown(in: request, session: session),
            sections: session == nil
                ? []
                : Self.sections.map { section in
                    Layout.Section(
                        path: section.path, label: section.label,
                        current: section.path == "/console" ? path == "/console" : path.hasPrefix(section.path))
                })
        var headers = HTTPFields()
        headers[.contentType] = "text/html; charset=utf-8"
        // Scripts and styles only from the console itself; no frames, no form posts elsewhere.
        headers[.contentSecurityPolicy] =
            "default-src 'self'; img-src 'self' data:; frame-ancestors 'none'; form-action 'self'; base-uri 'none'"
        headers[.cacheControl] = "no-store"
        headers[HTTPField.Name("Referrer-Policy")!] = "same-origin"
        headers[HTTPField.Name("X-Content-Type-Options")!] = "nosniff"
        let html = library.render(layout, withTemplate: "layout") ?? ""
        return Response(status: status, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(string: html)))
    }

    struct Layout {
        struct Section {
            let path: String
            let label: String
            let current: Bool
        }
        let title: String
        let content: String
        let signedIn: Viewer?
        let notice: String?
        let sections: [Section]
    }
}

/// Who is looking, as every page's template sees it: the forms' CSRF token, and whether to show actions at all (the
/// server refuses a viewer's action whether or not the button was shown).
struct Viewer {
    let name: String
    let role: String
    let mayAct: Bool
    let csrf: String

    init(_ session: SignedIn) {
        name = session.operator.name
        role = session.operator.role.rawValue
        mayAct = session.operator.mayAct
        csrf = session.csrfToken
    }
}
