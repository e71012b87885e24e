import Foundation
import Hummingbird
import KilnCore
import KilnPolicy
import KilnQueue
import KilnStore

/// Tenants: their weights, caps and diagnostic kinds, their policy in force, and their keys (a new one shown once,
/// revoked by prefix).
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

    struct Model {
        let tenant: Row
        let keys: [KeyRow]
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

    private func page(_ request: Request, context: ConsoleRequestContext, newKey: String?) async throws -> Response {
        let session = try context.signedIn()
        let tenant = try await self.tenant(context)
        let keys = try await dependencies.keys.list(tenant: tenant.id).map {
            KeyRow(prefix: $0.prefix, created: Formatting.time($0.createdAt), revoked: $0.revokedAt.map(Formatting.time))
        }
        let model = Model(
            tenant: row(tenant), keys: keys, policy: dependencies.policies[tenant.id].map(PolicySummary.init), viewer: Viewer(session),
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
