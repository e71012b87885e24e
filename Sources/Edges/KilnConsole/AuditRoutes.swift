import Foundation
import Hummingbird
import KilnStore

/// The audit log: every action taken in the console, refused ones too, newest first, filtered by operator, action,
/// what it was on (a tenant's id finds its keys, lanes and identities) and time.
struct AuditRoutes {
    let dependencies: ConsoleDependencies
    let configuration: ConsoleConfiguration
    let renderer: ConsoleRenderer

    struct Row {
        let at: String
        let operatorName: String
        let action: String
        let target: String
        let note: String
        let outcome: String
        let address: String
    }

    struct Model {
        let rows: [Row]
        let next: String?
        /// The filter's fields as typed, to fill the form again.
        let fields: [String: String]
    }

    func register(on router: Router<ConsoleRequestContext>) {
        router.get("/console/audit", use: list)
    }

    @Sendable func list(_ request: Request, context: ConsoleRequestContext) async throws -> Response {
        let session = try context.signedIn()
        let before = try request.uri.queryParameters["before"].map { text in
            guard let id = Int64(text) else { throw ConsoleRefusal(.badRequest, "before: not an entry's number") }
            return id
        }
        var fields: [String: String] = [:]
        for name in ["operator", "action", "on", "from", "to"] {
            let value = ConsoleInput.query(request, name)
            if !value.isEmpty { fields[name] = value }
        }
        var filter = ConsoleAuditLog.Filter()
        // What others did may name other tenants: an operator of some tenants reads its own entries only.
        filter.operatorName = session.isScoped ? session.operator.name : fields["operator"]
        filter.action = fields["action"]
        filter.targetContaining = fields["on"]
        filter.from = try fields["from"].map { try ConsoleInput.date($0, field: "from") }
        filter.before = try fields["to"].map { try ConsoleInput.date($0, field: "to") }
        let entries = try await dependencies.audit.page(matching: filter, before: before, limit: configuration.pageSize)
        let next = entries.count == configuration.pageSize ? entries.last.map { Self.query(fields, before: $0.id) } : nil
        let model = Model(
            rows: entries.map {
                Row(
                    at: Formatting.time($0.at), operatorName: $0.operatorName, action: $0.action, target: $0.target, note: $0.note,
                    outcome: $0.outcome, address: $0.address)
            }, next: next, fields: fields)
        return renderer.page("audit", title: "Audit log", model: model, session: session, request: request)
    }

    /// The query of the page of entries older than `before`, with the same filter.
    private static func query(_ fields: [String: String], before: Int64) -> String {
        var components = URLComponents()
        components.queryItems =
            fields.sorted { $0.key < $1.key }.map { URLQueryItem(name: $0.key, value: $0.value) } + [
                URLQueryItem(name: "before", value: String(before))
            ]
        return components.percentEncodedQuery ?? ""
    }
}
