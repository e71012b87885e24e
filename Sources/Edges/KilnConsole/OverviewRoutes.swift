import Foundation
import HTTPTypes
import Hummingbird
import KilnCore
import KilnQueue
import NIOCore

/// The overview (``OverviewModel``), sent again every few seconds over an event stream, so the page stays live without
/// reloading; and pausing and resuming a class or a tenant.
struct OverviewRoutes {
    let dependencies: ConsoleDependencies
    let configuration: ConsoleConfiguration
    let renderer: ConsoleRenderer

    func register(on router: Router<ConsoleRequestContext>) {
        router.get("/console", use: page)
        router.get("/console/live", use: live)
        router.post("/console/lanes/pause", use: pause)
        router.post("/console/lanes/resume", use: resume)
    }

    /// Claims skip a paused class or tenant; its submissions are still admitted and wait (docs/queue.md). A whole
    /// class, every tenant's work of it, is paused only after a confirmation.
    @Sendable func pause(_ request: Request, context: ConsoleRequestContext) async throws -> Response {
        let form = try context.postedForm()
        let lane = try Self.lane(form, for: try context.signedIn())
        if case .jobClass(let jobClass) = lane, !ConsoleConfirmation.isConfirmed(form) {
            let confirmation = ConsoleConfirmation(
                title: "Pause a class?",
                question: "Pause class \(jobClass.rawValue)? No worker claims any tenant's \(jobClass.rawValue) jobs until it is resumed; "
                    + "they are still admitted and wait.",
                button: "Pause it", keep: "Leave it running", back: Self.page(form))
            return confirmation.page(
                action: "/console/lanes/pause", fields: [("class", jobClass.rawValue), ("back", Self.page(form))], renderer: renderer,
                session: try context.signedIn(), request: request)
        }
        return try await AuditedAction(dependencies: dependencies, context: context).perform(
            "lane.pause", on: Self.describe(lane), returningTo: try Self.page(context.postedForm())
        ) {
            try await dependencies.namespace.admin.pause(lane) ? "paused \(Self.describe(lane))" : "\(Self.describe(lane)) was paused already"
        }
    }

    @Sendable func resume(_ request: Request, context: ConsoleRequestContext) async throws -> Response {
        let lane = try Self.lane(try context.postedForm(), for: try context.signedIn())
        return try await AuditedAction(dependencies: dependencies, context: context).perform(
            "lane.resume", on: Self.describe(lane), returningTo: try Self.page(context.postedForm())
        ) {
            try await dependencies.namespace.admin.resume(lane) ? "resumed \(Self.describe(lane))" : "\(Self.describe(lane)) was not paused"
        }
    }

    /// The form's `class` or `tenant`, exactly one of them: a tenant the operator sees; a class, which is every
    /// tenant's work, only for an operator of every tenant.
    static func lane(_ form: FormBody, for session: SignedIn) throws -> QueueLane {
        switch (form["class"], form["tenant"]) {
        case (let name?, nil):
            guard let jobClass = JobClass(rawValue: name) else {
                throw ConsoleRefusal(.badRequest, "class: one of \(JobClass.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            guard !session.isScoped else { throw ConsoleRefusal(.forbidden, "a class is every tenant's: an operator of some tenants pauses those") }
            return .jobClass(jobClass)
        case (nil, let tenant?):
            let id = try ConsoleInput.requiredTenant(tenant)
            try session.require(id, "tenant \(id)")
            return .tenant(id)
        default:
            throw ConsoleRefusal(.badRequest, "name a class or a tenant, not both")
        }
    }

    static func describe(_ lane: QueueLane) -> String {
        switch lane {
        case .jobClass(let jobClass): "class \(jobClass.rawValue)"
        case .tenant(let tenant): "tenant \(tenant)"
        }
    }

    /// Where to go back to: the page the form was on (a console path), else the overview.
    static func page(_ form: FormBody) -> String {
        SignInRoutes.safeNext(form["back"])
    }

    @Sendable func page(_ request: Request, context: ConsoleRequestContext) async throws -> Response {
        let session = try context.signedIn()
        let window = try ChartWindow(parameter: request.uri.queryParameters["window"].map(String.init))
        let live = renderer.fragment("overview-live", try await OverviewModel.read(dependencies, session: session, window: window))
        let windows = ChartWindow.allCases.map { choice in
            ["href": "/console?window=\(choice.rawValue)", "name": choice.name, "current": choice == window] as [String: Any]
        }
        return renderer.page(
            "overview", title: "Overview", model: ["live": live, "window": window.rawValue, "windows": windows], session: session, request: request)
    }

    /// `text/event-stream`: an `overview` event with the live part's HTML now and every ``ConsoleConfiguration/liveInterval``.
    @Sendable func live(_ request: Request, context: ConsoleRequestContext) async throws -> Response {
        let session = try context.signedIn()
        let window = try ChartWindow(parameter: request.uri.queryParameters["window"].map(String.init))
        let dependencies = self.dependencies
        let renderer = self.renderer
        let interval = configuration.liveInterval
        return ConsoleServerSentEvent.response { writer in
            while !Task.isCancelled {
                let html = renderer.fragment("overview-live", try await OverviewModel.read(dependencies, session: session, window: window))
                try await ConsoleServerSentEvent.send("overview", html, to: &writer)
                try await Task.sleep(for: interval)
            }
        }
    }
}
