import Foundation
public import KilnCore

/// Where every step of a worker's provider routes stands, for its heartbeat: the circuits this process keeps, and
/// the parks and concurrency slots the fleet shares in Redis, read in three round trips.
public struct ProviderReadings: Sendable {
    private let walkers: [RouteWalker]
    private let parking: ProviderParking
    private let concurrency: ProviderConcurrency

    public init(text: TextRouting, images: ImageRouting, parking: ProviderParking, concurrency: ProviderConcurrency) {
        self.walkers = (text.walkers + images.walkers).filter { !$0.steps.isEmpty }
        self.parking = parking
        self.concurrency = concurrency
    }

    /// Each step of each route once. A route served both as text and as images (its providers make both) has a
    /// circuit in each router: the one furthest from closed is shown.
    public func current() async throws -> [ProviderReading] {
        let wallNow = Int64(Date().timeIntervalSince1970 * 1000)
        var circuits: [StepKey: (ProviderReading.Circuit, Int64?)] = [:]
        var recent: [StepKey: (calls: Int, failures: Int)] = [:]
        var order: [(key: StepKey, cap: Int?)] = []
        for walker in walkers {
            let breakers = walker.breakerSnapshots
            let now = walker.now
            for step in walker.steps {
                let key = StepKey(route: walker.name, provider: step.provider, model: step.model)
                let reading = Self.reading(breakers[step.provider]?.state ?? .closed, now: now, wallNow: wallNow)
                let judged = breakers[step.provider]?.recent ?? (calls: 0, failures: 0)
                let known = recent[key] ?? (calls: 0, failures: 0)
                recent[key] = (known.calls + judged.calls, known.failures + judged.failures)
                if let known = circuits[key] {
                    if reading.0.severity > known.0.severity { circuits[key] = reading }
                } else {
                    circuits[key] = reading
                    order.append((key, step.maxConcurrent))
                }
            }
        }
        let providers = Array(Set(order.map(\.key.provider))).sorted()
        let parked = try await parking.parkedUntil(providers)
        let capped = order.filter { $0.cap != nil }.map(\.key)
        let inUse = Dictionary(
            zip(capped, try await concurrency.inUse(capped.map { ($0.provider, $0.model) })), uniquingKeysWith: { first, _ in first })
        return order.map { key, cap in
            let (circuit, openUntil) = circuits[key] ?? (.closed, nil)
            return ProviderReading(
                route: key.route, provider: key.provider, model: key.model, circuit: circuit, openUntilMilliseconds: openUntil,
                parkedUntilMilliseconds: parked[key.provider], slotsInUse: cap == nil ? nil : inUse[key] ?? 0, slotCap: cap,
                recentCalls: recent[key]?.calls ?? 0, recentFailures: recent[key]?.failures ?? 0)
        }
    }

    private struct StepKey: Hashable {
        let route: String
        let provider: String
        let model: String
    }

    /// A breaker's state as a reading; an open one's end in wall-clock milliseconds.
    private static func reading(
        _ state: CircuitBreaker.State, now: ContinuousClock.Instant, wallNow: Int64
    ) -> (ProviderReading.Circuit, Int64?) {
        switch state {
        case .closed: return (.closed, nil)
        case .halfOpen: return (.halfOpen, nil)
        case .open(let until): return (.open, wallNow + max(.zero, until - now).milliseconds)
        }
    }
}

extension ProviderReading.Circuit {
    /// How far from closed: open is furthest.
    fileprivate var severity: Int {
        switch self {
        case .closed: 0
        case .halfOpen: 1
        case .open: 2
        }
    }
}
