/// Where one step of a provider route stands in one worker process, as its heartbeat publishes it: the step's
/// circuit (kept per process), and the fleet-wide park and concurrency slots it shares with every worker.
public struct ProviderReading: Sendable, Hashable, Codable {
    /// A circuit breaker's state.
    public enum Circuit: String, Sendable, Hashable, Codable {
        /// Calls go through.
        case closed
        /// No calls until ``ProviderReading/openUntilMilliseconds``.
        case open
        /// One probe call decides whether it closes again.
        case halfOpen = "half_open"
    }

    /// The route, `<tenant>/<kind>` (`*` for every tenant without a route of its own).
    public let route: String
    public let provider: String
    public let model: String
    public let circuit: Circuit
    /// When an open circuit lets its probe through, in milliseconds since 1970; nil unless open.
    public let openUntilMilliseconds: Int64?
    /// When the provider's park ends, in milliseconds since 1970 (Redis's clock); nil when it is not parked.
    public let parkedUntilMilliseconds: Int64?
    /// The calls in flight to this provider and model across the fleet, and the most allowed; both nil when uncapped.
    public let slotsInUse: Int?
    public let slotCap: Int?
    /// The latest calls this process's circuit judges (at most its window, 20 by default) and how many failed: the
    /// provider's recent error rate here. Nil in a heartbeat from a worker that predates them.
    public let recentCalls: Int?
    public let recentFailures: Int?

    public init(
        route: String, provider: String, model: String, circuit: Circuit, openUntilMilliseconds: Int64?, parkedUntilMilliseconds: Int64?,
        slotsInUse: Int?, slotCap: Int?, recentCalls: Int?, recentFailures: Int?
    ) {
        self.route = route
        self.provider = provider
        self.model = model
        self.circuit = circuit
        self.openUntilMilliseconds = openUntilMilliseconds
        self.parkedUntilMilliseconds = parkedUntilMilliseconds
        self.slotsInUse = slotsInUse
        self.slotCap = slotCap
        self.recentCalls = recentCalls
        self.recentFailures = recentFailures
    }
}
