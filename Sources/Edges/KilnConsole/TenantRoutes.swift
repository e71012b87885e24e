import Foundation
import Hummingbird
import KilnCore
import KilnPolicy
import KilnQueue
import KilnStore

/// Tenants: their weights, caps and diagnostic kinds, their policy in force, their keys (a new one shown once, revoked
/// by prefix), and their queued jobs by class, each class's cleared at once.
struct TenantRoutes {
    let dependencies: ConsoleDependencies
    let renderer: ConsoleRenderer
    /// Keys created and not yet shown.
    let newKeys: NewKeys

    func register(on router: Router<ConsoleRequestContext>) {
        router.get("/console/tenants", use: list)
        router.get("/console/tenants/:tenant", use: show)
        router.post("/console/tenants/:tenant/keys", use: createKey)
        router.post("/console/tenants/:tenant/keys/revoke", use: revokeKey)
        router.post("/console/tenants/:tenant/clear", use: clearQueued)
    }

    struct Row {
        let id: String
        let name: String
        let weight: Int
        let runningCap: Int
        let diagnostics: Bool
        let metered: Bool
    }

    struct KeyRow {
        let prefix: String
        let created: String
        let revoked: String?
    }

    /// A class of the tenant's work: how many of its jobs wait in the ready lists.
    struct QueueRow {
        let jobClass: String
        let ready: Int
    }

    struct Model {
        let tenant: Row
        let keys: [KeyRow]
        let queued: [QueueRow]
        let policy: PolicySummary?
        let viewer: Viewer
        /// Whether claims skip its jobs.
        let paused: Bool
        /// A key just created, shown this once.
        let newKey: String?
    }

    @Sendable func list(_ request: Request, context: ConsoleRequestContext) async throws -> Response {
        let session = try context.signedIn()
        let rows = try await dependencies.tenants.list().filter { session.operator.sees($0.id) }.map(row)
        return renderer.page("tenants", title: "Tenants", model: ["rows": rows], session: session, request: request)
    }

    /// The tenant's page; with the ticket of a key its session just created, that key too, this once.
    @Sendable func show(_ request: Request, context: ConsoleRequestContext) async throws -> Response {
        let session = try context.signedIn()
        let newKey = request.uri.queryParameters["key"].flatMap { newKeys.take(String($0), for: session) }
        return try await page(request, context: context, newKey: newKey)
    }

    /// Creates a key, audited by its prefix, and goes to the tenant's page that shows it once (``NewKeys``; the key is
    /// not stored, and the page is `no-store`).
    @Sendable func createKey(_ request: Request, context: ConsoleRequestContext) async throws -> Response {
        let tenant = try await self.tenant(context)
        let session = try context.signedIn()
        let name = session.operator.name
        let created = try await dependencies.keys.create(tenant: tenant.id)
        try await dependencies.audit.record(
            operator: name, action: "key.create", target: "\(tenant.id) \(created.record.prefix)", outcome: "done", address: context.clientAddress)
        return .redirect(to: "/console/tenants/\(tenant.id)?key=\(newKeys.hold(created.key, for: session))")
    }

    /// After a confirmation: a revoked key stops working at once for every app that holds it.
    @Sendable func revokeKey(_ request: Request, context: ConsoleRequestContext) async throws -> Response {
        let tenant = try await self.tenant(context)
        let form = try context.postedForm()
        let prefix = form["prefix"] ?? ""
        guard ConsoleConfirmation.isConfirmed(form) else {
            let confirmation = ConsoleConfirmation(
                title: "Revoke a key?",
                question: "Revoke \(tenant.id)'s key \(prefix)? Every request with it is refused from now on, and it cannot be restored.",
                button: "Revoke it", keep: "Keep it", back: "/console/tenants/\(tenant.id)")
            return confirmation.page(
                action: "/console/tenants/\(tenant.id)/keys/revoke", fields: [("prefix", prefix)], renderer: renderer,
                session: try context.signedIn(), request: request)
        }
        return try await AuditedAction(dependencies: dependencies, context: context).perform(
            "key.revoke", on: "\(tenant.id) \(prefix)", returningTo: "/console/tenants/\(tenant.id)"
        ) {
            // Only this tenant's keys: a prefix of another tenant's is not found here.
            guard let key = try await dependencies.keys.list(tenant: tenant.id).first(where: { $0.prefix == prefix && $0.revokedAt == nil }) else {
                throw ConsoleRefusal(.notFound, "\(tenant.id) has no active key \(prefix)")
            }
            // By its id: another tenant's key with the same prefix is neither revoked nor an ambiguity.
            _ = try await dependencies.keys.revoke(key.id.uuidString)
            return "revoked \(prefix)"
        }
    }

    /// Every queued job of the tenant of one class (`class`) cancelled — those in its ready lists, those held back
    /// by their identity's cap and those delayed — after a confirmation that states how many; its running jobs and its
    /// retrying ones go on. In the background, ``BulkAction/batchSize`` at a time, audited when it starts and with the
    /// count when it ends.
    @Sendable func clearQueued(_ request: Request, context: ConsoleRequestContext) async throws -> Response {
        let tenant = try await self.tenant(context)
        let form = try context.postedForm()
        guard let jobClass = form["class"].flatMap(JobClass.init(rawValue:)) else {
            throw ConsoleRefusal(.badRequest, "class: one of \(JobClass.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        var queued = LiveJobs.Filter(tenant: tenant.id, jobClass: jobClass, places: [.queued, .held, .waiting])
        queued.state = .queued
        var heldOrDelayed = queued
        heldOrDelayed.places = [.held, .waiting]
        let cancellation = LiveJobCancellation(dependencies: dependencies, context: context)
        // The ready lists counted exactly, by their lengths; the jobs held back or delayed, by reading them (bounded).
        let ready = try await dependencies.namespace.liveJobs.readyCounts(tenant: tenant.id)[jobClass] ?? 0
        let others = try await cancellation.count(heldOrDelayed)
        let count = LiveJobs.MatchCount(matches: ready + others.matches, complete: others.complete)
        let described = "\(tenant.id), class \(jobClass.rawValue)"
        let back = "/console/tenants/\(tenant.id)"
        guard count.matches > 0 || !count.complete else { throw ConsoleRefusal(.conflict, "\(tenant.id) has no queued \(jobClass.rawValue) job") }
        let counted = LiveJobCancellation.phrase(count)
        guard ConsoleConfirmation.isConfirmed(form) else {
            let more = others.complete ? "\(others.matches)" : "at least \(others.matches)"
            let confirmation = ConsoleConfirmation(
                title: "Clear queued \(jobClass.rawValue) jobs?",
                question:
                    "Cancel \(counted) queued \(jobClass.rawValue) job(s) of \(tenant.id): \(ready) in its ready lists and \(more) held back by a "
                    + "cap or delayed? Each ends cancelled, as if its app had cancelled it; running and retrying jobs go on.",
                button: "Cancel \(counted)", keep: "Keep them", back: back)
            return confirmation.page(
                action: "/console/tenants/\(tenant.id)/clear", fields: [("class", jobClass.rawValue)], renderer: renderer,
                session: try context.signedIn(), request: request)
        }
        return try await cancellation.start(queued, action: "tenant.clear-queued", on: described, counted: counted, returningTo: back)
    }

    private func page(_ request: Request, context: ConsoleRequestContext, newKey: String?) async throws -> Response {
        let session = try context.signedIn()
        let tenant = try await self.tenant(context)
        let keys = try await dependencies.keys.list(tenant: tenant.id).map {
            KeyRow(prefix: $0.prefix, created: Formatting.time($0.createdAt), revoked: $0.revokedAt.map(Formatting.time))
        }
        let ready = try await dependencies.namespace.liveJobs.readyCounts(tenant: tenant.id)
        let model = Model(
            tenant: row(tenant), keys: keys, queued: JobClass.allCases.map { QueueRow(jobClass: $0.rawValue, ready: ready[$0] ?? 0) },
            policy: dependencies.policies[tenant.id].map(PolicySummary.init), viewer: Viewer(session),
            paused: try await dependencies.namespace.admin.paused().contains(.tenant(tenant.id)), newKey: newKey)
        return renderer.page("tenant", title: "Tenant \(tenant.id)", model: model, session: session, request: request)
    }

    private func tenant(_ context: ConsoleRequestContext) async throws -> Tenant {
        let id = try ConsoleInput.requiredTenant(try context.parameters.require("tenant"))
        try context.signedIn().require(id, "tenant \(id)")
        guard let tenant = try await dependencies.tenants.find(id: id) else { throw ConsoleRefusal(.notFound, "no tenant \(id)") }
        return tenant
    }

    private func row(_ tenant: Tenant) -> Row {
        Row(
            id: tenant.id.rawValue, name: tenant.name, weight: tenant.weight, runningCap: tenant.runningCap, diagnostics: tenant.diagnostics,
            metered: dependencies.policies[tenant.id] != nil)
    }
}
