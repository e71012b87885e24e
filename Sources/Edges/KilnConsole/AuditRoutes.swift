import Hummingbird
import KilnStore

/// The audit log: every action taken in the console, refused ones too, newest first.
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
        let entries = try await dependencies.audit.page(before: before, limit: configuration.pageSize)
        let model = Model(
            rows: entries.map {
                Row(
                    at: Formatting.time($0.at), operatorName: $0.operatorName, action: $0.action, target: $0.target, note: $0.note,
                    outcome: $0.outcome, address: $0.address)
            }, next: entries.count == configuration.pageSize ? entries.last.map { "before=\($0.id)" } : nil)
        return renderer.page("audit", title: "Audit log", model: model, session: session, request: request)
    }
}
