import Foundation
import Hummingbird
import KilnCore
import KilnQueue
import KilnStore

/// Providers: each route step's circuit as every worker alive reports it, its recent error rate, whether the provider
/// is parked and until when, its calls in flight against its cap; and tokens and images by day, tenant and provider.
struct ProviderStatusRoutes {
    let dependencies: ConsoleDependencies
    let renderer: ConsoleRenderer

    /// How many days of usage the page shows.
    static let usageDays = 7

    func register(on router: Router<ConsoleRequestContext>) {
        router.get("/console/providers", use: show)
    }

    struct RouteRow {
        let route: String
        let provider: String
        let model: String
        let circuits: String
        let open: Bool
        let parkedUntil: String?
        let slots: String
        /// Failures among the latest calls each worker's circuit judges, summed over the workers.
        let recentErrors: String
    }

    struct UsageRow {
        let day: String
        let tenant: String
        let provider: String
        let calls: Int
        let inputTokens: Int
        let outputTokens: Int
        let images: Int
    }

    struct Model {
        let routes: [RouteRow]
        let workers: Int
        let usage: [UsageRow]
        let days: Int
    }

    @Sendable func show(_ request: Request, context: ConsoleRequestContext) async throws -> Response {
        let session = try context.signedIn()
        let now = dependencies.clock()
        let workers = try await dependencies.namespace.fleet.workersAlive()
        let usage = try await dependencies.usage.daily(since: now.addingTimeInterval(-Double(Self.usageDays - 1) * 86_400).startOfUTCDay)
        // An operator of some tenants sees their routes and usage; the default route (`*`) is every tenant's, shown to
        // an operator of every tenant only.
        let readings = workers.flatMap(\.providers).filter { session.sees(tenantNamed: String($0.route.prefix { $0 != "/" })) }
        let model = Model(
            routes: Self.routes(readings, now: Int64(now.timeIntervalSince1970 * 1000)), workers: workers.count,
            usage: usage.filter { session.sees(tenantNamed: $0.tenant) }.map {
                UsageRow(
                    day: $0.day, tenant: $0.tenant, provider: $0.provider, calls: $0.calls, inputTokens: $0.inputTokens,
                    outputTokens: $0.outputTokens, images: $0.images)
            }, days: Self.usageDays)
        return renderer.page("providers", title: "Providers", model: model, session: session, request: request)
    }

    /// One row per route step, its circuits counted over the workers that report it (each process keeps its own).
    static func routes(_ readings: [ProviderReading], now: Int64) -> [RouteRow] {
        Dictionary(grouping: readings) { "\($0.route)\n\($0.provider)\n\($0.model)" }.values.compactMap { group -> RouteRow? in
            guard let first = group.first else { return nil }
            let states = Dictionary(grouping: group, by: \.circuit)
            let circuits = [ProviderReading.Circuit.closed, .halfOpen, .open].compactMap { state -> String? in
                guard let count = states[state]?.count else { return nil }
                let until = state == .open ? states[state]?.compactMap(\.openUntilMilliseconds).max() : nil
                return "\(state.rawValue.replacingOccurrences(of: "_", with: "-")) on \(count)"
                    + (until.map { " until \(Formatting.time(milliseconds: $0))" } ?? "")
            }
            let parked = group.compactMap(\.parkedUntilMilliseconds).filter { $0 > now }.max()
            let cap = group.compactMap(\.slotCap).max()
            let inUse = group.compactMap(\.slotsInUse).max()
            let calls = group.compactMap(\.recentCalls).reduce(0, +)
            let failures = group.compactMap(\.recentFailures).reduce(0, +)
            return RouteRow(
                route: first.route, provider: first.provider, model: first.model, circuits: circuits.joined(separator: ", "),
                open: states[.open] != nil, parkedUntil: parked.map { Formatting.time(milliseconds: $0) },
                slots: cap.map { "\(inUse ?? 0) of \($0)" } ?? "uncapped",
                recentErrors: calls == 0 ? "no calls judged" : "\(failures) of \(calls) (\(failures * 100 / calls) %)")
        }.sorted { ($0.route, $0.provider, $0.model) < ($1.route, $1.provider, $1.model) }
    }
}

extension Date {
    /// Midnight UTC of this date's day.
    fileprivate var startOfUTCDay: Date {
        Date(timeIntervalSince1970: (timeIntervalSince1970 / 86_400).rounded(.down) * 86_400)
    }
}
