import Foundation
import KilnCore
import KilnQueue
import KilnStore

/// What the overview shows, read in one pass: per class and per tenant what is ready, held by caps, delayed, in flight
/// and dead with the oldest wait; what is paused; the attempts ended over the last 5 minutes, and over the chart's window
/// drawn; and the workers alive.
struct OverviewModel {
    struct Row {
        let name: String
        let ready: Int
        let held: String
        let delayed: Int
        let inFlight: Int
        let dead: Int
        let oldestWait: String
        let paused: Bool
        /// The chart's window, drawn.
        let chart: String
        /// Attempts ended in the last 5 minutes: done, and failed.
        let lastFive: String
    }

    struct WorkerRow {
        let id: String
        let host: String
        let classes: String
        let version: String
        let running: Int
        let lastBeat: String
        let started: String
    }

    /// Each outcome's counts, a bucket each, of a class or a tenant.
    typealias Series = [AttemptOutcome: [Int]]

    let readAt: String
    let chartHeading: String
    let inFlight: Int
    let delayed: Int
    let dead: Int
    let unrecorded: Int
    let partial: String?
    let classes: [Row]
    let tenants: [Row]
    let workers: [WorkerRow]
    let viewer: Viewer
    /// Whether the operator sees every tenant: the totals, the classes (every tenant's work) and the workers are
    /// shown only then; an operator of some tenants sees their rows alone.
    let whole: Bool

    static func read(_ dependencies: ConsoleDependencies, session: SignedIn, window: ChartWindow) async throws -> OverviewModel {
        let viewer = Viewer(session)
        let fleet = dependencies.namespace.fleet
        async let overview = dependencies.namespace.admin.overview()
        async let recent = fleet.throughput(last: 5, .minute)
        async let charted = fleet.throughput(last: window.bars, window.bucket)
        let (queue, lastFive, ended) = try await (overview, recent, charted)
        let now = Int64(dependencies.clock().timeIntervalSince1970 * 1000)
        func row(_ name: String, _ counts: QueueOverview.Counts, held: Int?, paused: Bool, of series: (Throughput) -> Series?) -> Row {
            let five = Self.bars(series(lastFive), count: lastFive.starts.count)
            return Row(
                name: name, ready: counts.ready, held: held.map(String.init) ?? "—", delayed: counts.delayed, inFlight: counts.inFlight,
                dead: counts.dead, oldestWait: Formatting.wait(milliseconds: counts.oldestWaitMilliseconds), paused: paused,
                chart: BarChart(bars: Self.bars(series(ended), count: ended.starts.count), window: window, label: "\(name), \(window.heading)").svg,
                lastFive: "\(five.reduce(0) { $0 + $1.done }) done, \(five.reduce(0) { $0 + $1.failures }) failed")
        }
        let classes = JobClass.allCases.map { jobClass in
            row(
                jobClass.rawValue, queue.byClass[jobClass] ?? .init(), held: nil, paused: queue.paused.contains(.jobClass(jobClass)),
                of: { $0.byClass[jobClass] })
        }
        let tenantNames = Set(queue.byTenant.keys).union(queue.heldByTenant.keys).union(ended.byTenant.keys)
            .union(queue.paused.compactMap { if case .tenant(let id) = $0 { id.rawValue } else { nil } })
        let tenants = tenantNames.filter(session.sees(tenantNamed:)).sorted().map { name in
            row(
                name, queue.byTenant[name] ?? .init(), held: queue.heldByTenant[name] ?? 0,
                paused: TenantID(validating: name).map { queue.paused.contains(.tenant($0)) } ?? false, of: { $0.byTenant[name] })
        }
        let splits = [("delayed", queue.delayedSplit), ("dead", queue.deadSplit)].filter { !$0.1.isComplete }
        return OverviewModel(
            readAt: Formatting.time(dependencies.clock()), chartHeading: window.heading, inFlight: queue.inFlight, delayed: queue.delayedSplit.total,
            dead: queue.deadSplit.total, unrecorded: queue.unrecorded,
            partial: splits.isEmpty
                ? nil
                : splits.map { "\($0.0) per lane counts the first \($0.1.counted) of \($0.1.total)" }.joined(separator: "; "),
            classes: classes, tenants: tenants,
            workers: queue.workers.map { worker in
                WorkerRow(
                    id: worker.id, host: worker.host,
                    classes: worker.classes.sorted { $0.key.rawValue < $1.key.rawValue }.map { "\($0.key.rawValue) ×\($0.value)" }
                        .joined(separator: ", "),
                    version: worker.version, running: worker.running,
                    lastBeat: Formatting.wait(milliseconds: now - worker.lastBeatMilliseconds) + " ago",
                    started: Formatting.time(milliseconds: worker.startedAtMilliseconds))
            }, viewer: viewer, whole: !session.isScoped)
    }

    /// A series' bars: what each bucket counted done, failed (retried or failed) and dead.
    static func bars(_ series: Series?, count: Int) -> [BarChart.Bar] {
        (0..<count).map { index in
            func counted(_ outcome: AttemptOutcome) -> Int { series?[outcome]?[index] ?? 0 }
            return BarChart.Bar(done: counted(.succeeded), failed: counted(.retried) + counted(.failed), dead: counted(.dead))
        }
    }
}
