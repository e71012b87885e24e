import Foundation
import Hummingbird
import KilnCore
import KilnQueue

/// Abuse: the blocks in force with their reason and how long they last, lifted with a note; and the latest trips.
struct BlockRoutes {
    let dependencies: ConsoleDependencies
    let renderer: ConsoleRenderer

    func register(on router: Router<ConsoleRequestContext>) {
        router.get("/console/blocks", use: list)
        router.post("/console/blocks/lift", use: lift)
    }

    struct BlockLine {
        let tenant: String
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
        let blocks = try await quota.abuseBlocks().map {
            BlockLine(
                tenant: $0.tenant.rawValue, subject: $0.subject, reason: $0.reason,
                remaining: Formatting.wait(milliseconds: $0.remaining.milliseconds))
        }
        let trips = try await quota.abuseLog(limit: 50).map {
            TripLine(
                tenant: $0.tenant, subject: $0.subject, signal: $0.signal, action: $0.action,
                duration: Formatting.wait(milliseconds: $0.duration.milliseconds))
        }
        return renderer.page(
            "blocks", title: "Abuse", model: Model(blocks: blocks, trips: trips, viewer: Viewer(session)), session: session, request: request)
    }

    /// Lifts a block; the note (why) is required and goes to the audit log.
    @Sendable func lift(_ request: Request, context: ConsoleRequestContext) async throws -> Response {
        let form = try context.postedForm()
        let tenant = try ConsoleInput.requiredTenant(form["tenant"])
        guard let subject = form["subject"] else { throw ConsoleRefusal(.badRequest, "subject: which identity's block") }
        guard let note = form["note"] else { throw ConsoleRefusal(.badRequest, "note: say why the block is lifted") }
        return try await AuditedAction(dependencies: dependencies, context: context).perform(
            "block.lift", on: "\(tenant)/\(subject)", note: note, returningTo: "/console/blocks"
        ) {
            try await dependencies.namespace.quota.liftBlock(tenant: tenant, subject: subject) ? "lifted" : "not lifted: it had already ended"
        }
    }
}
