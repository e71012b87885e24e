import Foundation
import HTTPTypes
import Hummingbird
import KilnCore
import KilnQueue
import NIOCore

/// The overview: what waits, runs, is delayed and dead, per class and per tenant, with the oldest wait; sent again
/// every few seconds over an event stream, so the page stays live without reloading.
struct OverviewRoutes {
    let dependencies: ConsoleDependencies
    let configuration: ConsoleConfiguration
    let renderer: ConsoleRenderer

    func register(on router: Router<ConsoleRequestContext>) {
        router.get("/console", use: page)
        router.get("/console/live", use: live)
    }

    @Sendable func page(_ request: Request, context: ConsoleRequestContext) async throws -> Response {
        let live = renderer.fragment("overview-live", try await OverviewModel.read(dependencies))
        return renderer.page("overview", title: "Overview", model: ["live": live], session: try context.signedIn(), request: request)
    }

    /// `text/event-stream`: an `overview` event with the live part's HTML now and every ``ConsoleConfiguration/liveInterval``.
    @Sendable func live(_ request: Request, context: ConsoleRequestContext) async throws -> Response {
        _ = try context.signedIn()
        let dependencies = self.dependencies
        let renderer = self.renderer
        let interval = configuration.liveInterval
        var headers = HTTPFields()
        headers[.contentType] = "text/event-stream"
        headers[.cacheControl] = "no-store"
        return Response(
            status: .ok, headers: headers,
            body: ResponseBody { writer in
                while !Task.isCancelled {
                    let html = renderer.fragment("overview-live", try await OverviewModel.read(dependencies))
                    let data = html.split(separator: "\n", omittingEmptySubsequences: false).map { "data: \($0)" }.joined(separator: "\n")
                    try await writer.write(ByteBuffer(string: "event: overview\n\(data)\n\n"))
                    try await Task.sleep(for: interval)
                }
                try await writer.finish(nil)
            })
    }
}

/// What the overview shows, read in one pass.
struct OverviewModel {
    struct Count {
        let name: String
        let ready: Int
        let oldestWait: String
    }
    struct Lane {
        let tenant: String
        let jobClass: String
        let priority: String
        let ready: Int
        let oldestWait: String
    }

    let readAt: String
    let inFlight: Int
    let delayed: Int
    let dead: Int
    let unrecorded: Int
    let classes: [Count]
    let tenants: [Count]
    let lanes: [Lane]
    let idle: Bool

    static func read(_ dependencies: ConsoleDependencies) async throws -> OverviewModel {
        let stats = try await dependencies.namespace.admin.stats()
        func totals(_ key: (QueueStats.Depth) -> String) -> [Count] {
            Dictionary(grouping: stats.ready, by: key).map { name, lanes in
                Count(
                    name: name, ready: lanes.reduce(0) { $0 + $1.count },
                    oldestWait: Formatting.wait(milliseconds: lanes.compactMap(\.oldestWaitMilliseconds).max()))
            }.sorted { $0.name < $1.name }
        }
        return OverviewModel(
            readAt: Formatting.time(dependencies.clock()), inFlight: stats.inFlight, delayed: stats.delayed, dead: stats.dead,
            unrecorded: stats.unrecorded, classes: totals { $0.jobClass.rawValue }, tenants: totals { $0.tenant },
            lanes: stats.ready.map {
                Lane(
                    tenant: $0.tenant, jobClass: $0.jobClass.rawValue, priority: $0.priority.rawValue, ready: $0.count,
                    oldestWait: Formatting.wait(milliseconds: $0.oldestWaitMilliseconds))
            }, idle: stats.ready.isEmpty)
    }
}
