import Foundation
import Hummingbird
import KilnCore
import KilnQueue
import KilnStore

/// The dead letters: filtered by tenant and kind, paged by keyset (a million of them cost what a page does), replayed
/// one or a selection at a time, discarded after a confirmation; and every one a filter matches replayed or discarded
/// at once, after a confirmation that states how many, in batches.
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
        router.post("/console/dead/replay-matching", use: replayMatching)
        router.post("/console/dead/discard-matching", use: discardMatching)
    }

    struct ListModel {
        let tenant: String
        let kind: String
        /// How many Redis holds, across tenants: shown to an operator of every tenant only.
        let waiting: Int?
        let rows: [JobRow]
        let hasRows: Bool
        let next: String?
        let viewer: Viewer
    }

    @Sendable func list(_ request: Request, context: ConsoleRequestContext) async throws -> Response {
        let session = try context.signedIn()
        let kind = ConsoleInput.query(request, "kind")
        let tenant = try session.narrowing(try ConsoleInput.tenant(ConsoleInput.query(request, "tenant")))
        let tenantText = tenant?.rawValue ?? ""
        let records = try await dependencies.search.deadLetters(
            tenant: tenant, kind: kind.isEmpty ? nil : kind, after: try ConsoleInput.cursor(request), limit: configuration.pageSize)
        let last = records.count == configuration.pageSize ? records.last : nil
        let model = ListModel(
            tenant: tenantText, kind: kind, waiting: session.isScoped ? nil : try await dependencies.namespace.admin.deadCount(),
            rows: records.map(JobRow.init),
            hasRows: !records.isEmpty,
            next: last.flatMap { record in
                record.finishedAt.map { ConsoleInput.nextPage(["tenant": tenantText, "kind": kind], after: JobSearch.Cursor(at: $0, id: record.id)) }
            }, viewer: Viewer(session))
        return renderer.page("dead", title: "Dead letters", model: model, session: session, request: request)
    }

    @Sendable func replay(_ request: Request, context: ConsoleRequestContext) async throws -> Response {
        let ids = try await seen(try Self.selection(try context.postedForm()), by: try context.signedIn())
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
        let ids = try await seen(try Self.selection(form), by: session)
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

    /// Every dead letter the filter (`tenant`, `kind`) matches, replayed with fresh attempts, after a confirmation that
    /// says how many.
    @Sendable func replayMatching(_ request: Request, context: ConsoleRequestContext) async throws -> Response {
        let admin = dependencies.namespace.admin
        return try await actOnMatching(request, context, action: "replay", verb: "Replay", done: "replayed") { ids in
            var replayed = 0
            for id in ids where try await admin.replay(id) { replayed += 1 }
            return replayed
        }
    }

    /// Every dead letter the filter matches, discarded, after a confirmation that says how many.
    @Sendable func discardMatching(_ request: Request, context: ConsoleRequestContext) async throws -> Response {
        let admin = dependencies.namespace.admin
        let search = dependencies.search
        return try await actOnMatching(request, context, action: "discard", verb: "Discard", done: "discarded") { ids in
            for id in ids { _ = try await admin.purgeDead(id) }
            return try await search.discard(ids)
        }
    }

    /// Without `confirm=yes`, a page that says how many dead letters the filter matches and asks; with it, `act` on
    /// them in the background, ``BulkAction/batchSize`` at a time (the request answers at once, however many match),
    /// audited when it starts and again with the count when it ends. `act` returns how many of a batch it acted on.
    private func actOnMatching(
        _ request: Request, _ context: ConsoleRequestContext, action: String, verb: String, done: String,
        act: @escaping @Sendable ([JobID]) async throws -> Int
    ) async throws -> Response {
        let session = try context.signedIn()
        let form = try context.postedForm()
        let tenant = try session.narrowing(try ConsoleInput.tenant(form["tenant"] ?? ""))
        let tenantText = tenant?.rawValue ?? ""
        let kind = form["kind"].flatMap { $0.isEmpty ? nil : $0 }
        let described = "tenant \(tenant?.rawValue ?? "any"), kind \(kind ?? "any")"
        let filter = ConsoleInput.queryString(["tenant": tenantText, "kind": kind ?? ""])
        let back = "/console/dead" + (filter.isEmpty ? "" : "?" + filter)
        let search = dependencies.search
        let count = try await search.deadLetterCount(tenant: tenant, kind: kind)
        guard count > 0 else { throw ConsoleRefusal(.conflict, "no dead letter matches \(described)") }
        guard ConsoleConfirmation.isConfirmed(form) else {
            let consequence =
                action == "discard"
                ? "They leave Redis and this list for good and cannot be replayed; their records stay."
                : "Each runs again with fresh attempts."
            let confirmation = ConsoleConfirmation(
                title: "\(verb) every match?", question: "\(verb) all \(count) dead letter(s) matching \(described)? \(consequence)",
                button: "\(verb) \(count)", keep: "Keep them", back: back)
            return confirmation.page(
                action: "/console/dead/\(action)-matching", fields: [("tenant", tenantText), ("kind", kind ?? "")], renderer: renderer,
                session: session, request: request)
        }
        return try await BulkAction(dependencies: dependencies, context: context).start(
            "dead.\(action)-matching", on: described, returningTo: back,
            started: "started: \(verb.lowercased()) \(count) in batches of \(BulkAction.batchSize); the audit log says when it is done"
        ) {
            var acted = 0
            var read = 0
            do {
                var cursor: JobSearch.Cursor?
                while true {
                    let batch = try await search.deadLetters(tenant: tenant, kind: kind, after: cursor, limit: BulkAction.batchSize)
                    guard let last = batch.last, let finished = last.finishedAt else { break }
                    read += batch.count
                    acted += try await act(batch.map(\.id))
                    cursor = JobSearch.Cursor(at: finished, id: last.id)
                }
                return "finished: \(done) \(acted) of \(read)"
            } catch {
                return "failed after \(done) \(acted) of \(read): \(error)"
            }
        }
    }

    /// `ids`, once the operator is known to see each one's tenant (an operator of every tenant, at once).
    private func seen(_ ids: [JobID], by session: SignedIn) async throws -> [JobID] {
        guard session.isScoped else { return ids }
        for id in ids {
            guard let record = try await dependencies.search.job(id) else { throw ConsoleRefusal(.notFound, "no dead letter \(id)") }
            try session.require(record.tenant, "dead letter \(id)")
        }
        return ids
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
