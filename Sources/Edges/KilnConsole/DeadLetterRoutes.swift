import Foundation
import Hummingbird
import KilnCore
import KilnQueue
import KilnStore

/// The dead letters: filtered by tenant and kind, paged by keyset (a million of them cost what a page does), replayed
/// one or a selection at a time, discarded after a confirmation.
struct DeadLetterRoutes {
    let dependencies: ConsoleDependencies
    let configuration: ConsoleConfiguration
    let renderer: ConsoleRenderer

    /// A selection acts on a page's worth at most.
    static let selectionLimit = 100

    func register(on router: Router<ConsoleRequestContext>) {
        router.get("/console/dead", use: list)
        router.post("/console/dead/replay", use: replay)
        router.post("/console/dead/discard", use: discard)
    }

    struct ListModel {
        let tenant: String
        let kind: String
        let waiting: Int
        let rows: [JobRow]
        let hasRows: Bool
        let next: String?
        let viewer: Viewer
    }

    @Sendable func list(_ request: Request, context: ConsoleRequestContext) async throws -> Response {
        let session = try context.signedIn()
        let tenantText = ConsoleInput.query(request, "tenant")
        let kind = ConsoleInput.query(request, "kind")
        let tenant = try ConsoleInput.tenant(tenantText)
        let records = try await dependencies.search.deadLetters(
            tenant: tenant, kind: kind.isEmpty ? nil : kind, after: try ConsoleInput.cursor(request), limit: configuration.pageSize)
        let last = records.count == configuration.pageSize ? records.last : nil
        let model = ListModel(
            tenant: tenantText, kind: kind, waiting: try await dependencies.namespace.admin.deadCount(), rows: records.map(JobRow.init),
            hasRows: !records.isEmpty,
            next: last.flatMap { record in
                record.finishedAt.map { ConsoleInput.nextPage(["tenant": tenantText, "kind": kind], after: JobSearch.Cursor(at: $0, id: record.id)) }
            }, viewer: Viewer(session))
        return renderer.page("dead", title: "Dead letters", model: model, session: session, request: request)
    }

    @Sendable func replay(_ request: Request, context: ConsoleRequestContext) async throws -> Response {
        let ids = try Self.selection(try context.postedForm())
        return try await AuditedAction(dependencies: dependencies, context: context).perform(
            "dead.replay", on: ids.map(\.rawValue).joined(separator: " "), returningTo: "/console/dead"
        ) {
            var replayed = 0
            for id in ids where try await dependencies.namespace.admin.replay(id) { replayed += 1 }
            let missing = ids.count - replayed
            return "replayed \(replayed)" + (missing > 0 ? "; \(missing) no longer dead-lettered in Redis" : "")
        }
    }

    /// Without `confirm=yes`, a page that lists what would go and asks; with it, the jobs leave Redis and the list.
    @Sendable func discard(_ request: Request, context: ConsoleRequestContext) async throws -> Response {
        let session = try context.signedIn()
        let form = try context.postedForm()
        let ids = try Self.selection(form)
        guard ConsoleConfirmation.isConfirmed(form) else {
            let confirmation = ConsoleConfirmation(
                title: "Discard dead letters?",
                question:
                    "Discard \(ids.count) dead-lettered job(s)? They leave Redis and this list for good and cannot be replayed; their records stay.",
                items: ids.map(\.rawValue), button: "Discard them", keep: "Keep them", back: "/console/dead")
            return confirmation.page(
                action: "/console/dead/discard", fields: ids.map { ("id", $0.rawValue) }, renderer: renderer, session: session, request: request)
        }
        return try await AuditedAction(dependencies: dependencies, context: context).perform(
            "dead.discard", on: ids.map(\.rawValue).joined(separator: " "), returningTo: "/console/dead"
        ) {
            for id in ids { _ = try await dependencies.namespace.admin.purgeDead(id) }
            return "discarded \(try await dependencies.search.discard(ids))"
        }
    }

    /// The checked jobs: at least one, at most ``selectionLimit``, each a job id.
    static func selection(_ form: FormBody) throws -> [JobID] {
        let texts = form.all("id")
        guard !texts.isEmpty else { throw ConsoleRefusal(.badRequest, "select at least one job") }
        guard texts.count <= selectionLimit else { throw ConsoleRefusal(.badRequest, "select at most \(selectionLimit) jobs at a time") }
        return try texts.map { text in
            guard let id = JobID(validating: text) else { throw ConsoleRefusal(.badRequest, "\(text) is not a job id") }
            return id
        }
    }
}
