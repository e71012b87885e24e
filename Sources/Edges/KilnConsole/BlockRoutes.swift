import Foundation
import Hummingbird
import KilnCore
import KilnQueue
import KilnStore

/// Abuse: the blocks in force with their reason and how long they last, abuse detection's and operators'; blocking an
/// identity, a device or an address with a reason and a length, lifting a block with a note; and the latest trips.
struct BlockRoutes {
    let dependencies: ConsoleDependencies
    let renderer: ConsoleRenderer

    func register(on router: Router<ConsoleRequestContext>) {
        router.get("/console/blocks", use: list)
        router.post("/console/blocks/block", use: block)
        router.post("/console/blocks/lift", use: lift)
    }

    struct BlockLine {
        let tenant: String
        let kind: String
        let isIdentity: Bool
        let by: String
        let subject: String
        let reason: String
        let remaining: String
    }

    struct TripLine {
        let tenant: String
        let subject: String
        let signal: String
        let action: String
        let duration: String
    }

    struct Model {
        let blocks: [BlockLine]
        let trips: [TripLine]
        let viewer: Viewer
    }

    @Sendable func list(_ request: Request, context: ConsoleRequestContext) async throws -> Response {
        let session = try context.signedIn()
        let quota = dependencies.namespace.quota
        let blocks = try await quota.abuseBlocks().filter { session.operator.sees($0.tenant) }.map {
            BlockLine(
                tenant: $0.tenant.rawValue, kind: $0.target.kind, isIdentity: $0.target.kind == "identity",
                by: $0.byOperator ? "an operator" : "abuse detection", subject: $0.subject, reason: $0.reason,
                remaining: Formatting.wait(milliseconds: $0.remaining.milliseconds))
        }
        let trips = try await quota.abuseLog(limit: 50).filter { session.sees(tenantNamed: $0.tenant) }.map {
            TripLine(
                tenant: $0.tenant, subject: $0.subject, signal: $0.signal, action: $0.action,
                duration: Formatting.wait(milliseconds: $0.duration.milliseconds))
        }
        return renderer.page(
            "blocks", title: "Abuse", model: Model(blocks: blocks, trips: trips, viewer: Viewer(session)), session: session, request: request)
    }

    /// Blocks an identity, a device or an address of a tenant for some hours; the reason is required, shown with the
    /// block and in the refusals' detail, and goes to the audit log.
    @Sendable func block(_ request: Request, context: ConsoleRequestContext) async throws -> Response {
        let form = try context.postedForm()
        let tenant = try ConsoleInput.requiredTenant(form["tenant"])
        try context.signedIn().require(tenant, "tenant \(tenant)")
        let target = try Self.target(form)
        guard let reason = form["reason"], reason.utf8.count <= 200 else {
            throw ConsoleRefusal(.badRequest, "reason: say why, in at most 200 bytes")
        }
        guard let hours = form["hours"].flatMap(Int.init), (1...8_760).contains(hours) else {
            throw ConsoleRefusal(.badRequest, "hours: how long the block lasts, 1 to 8760")
        }
        return try await AuditedAction(dependencies: dependencies, context: context).perform(
            "block.set", on: "\(tenant)/\(target.kind)/\(target.value)", note: reason, returningTo: "/console/blocks"
        ) {
            try await dependencies.namespace.quota.block(target, tenant: tenant, reason: reason, for: .seconds(hours * 3_600))
            return "blocked for \(hours) h"
        }
    }

    /// Lifts a block; the note (why) is required and goes to the audit log.
    @Sendable func lift(_ request: Request, context: ConsoleRequestContext) async throws -> Response {
        let form = try context.postedForm()
        let tenant = try ConsoleInput.requiredTenant(form["tenant"])
        try context.signedIn().require(tenant, "tenant \(tenant)")
        let target = try Self.target(form)
        guard let note = form["note"] else { throw ConsoleRefusal(.badRequest, "note: say why the block is lifted") }
        return try await AuditedAction(dependencies: dependencies, context: context).perform(
            "block.lift", on: "\(tenant)/\(target.kind)/\(target.value)", note: note, returningTo: "/console/blocks"
        ) {
            try await dependencies.namespace.quota.lift(target, tenant: tenant) ? "lifted" : "not lifted: it had already ended"
        }
    }

    /// The form's `kind` (identity unless given) and `subject`.
    private static func target(_ form: FormBody) throws -> BlockTarget {
        guard let subject = form["subject"], !subject.isEmpty, subject.utf8.count <= 256 else {
            throw ConsoleRefusal(.badRequest, "subject: which identity, device or address, in at most 256 bytes")
        }
        guard let target = BlockTarget(kind: form["kind"] ?? "identity", value: subject) else {
            throw ConsoleRefusal(.badRequest, "kind: identity, device or address")
        }
        return target
    }
}
