/// One provider's circuit, in one process: closed while most calls succeed, open (no calls) for a while after too
/// many failures, then half-open, letting one probe through to decide.
///
/// A plain value: the caller keeps it behind a lock and passes the time in, so it is tested without waiting.
public struct CircuitBreaker: Sendable {
    /// When the circuit opens and for how long.
    public struct Configuration: Sendable {
        /// How many of the latest calls are judged. Default 20.
        public var window: Int
        /// No verdict on fewer calls than this. Default 10.
        public var minimumCalls: Int
        /// The share of failures in the window that opens the circuit. Default 0.5.
        public var failureRatio: Double
        /// How long an open circuit refuses calls before it lets a probe through. Default 30 seconds.
        public var openDuration: Duration

        /// Creates a configuration; every argument has the default stated on its property.
        public init(window: Int = 20, minimumCalls: Int = 10, failureRatio: Double = 0.5, openDuration: Duration = .seconds(30)) {
            self.window = window
            self.minimumCalls = minimumCalls
            self.failureRatio = failureRatio
            self.openDuration = openDuration
        }
    }

    /// Where the circuit stands.
    public enum State: Sendable, Equatable {
        case closed
        case open(until: ContinuousClock.Instant)
        /// One probe is allowed; `probing` says it is under way.
        case halfOpen(probing: Bool)
    }

    public let configuration: Configuration
    public private(set) var state: State = .closed
    /// The latest outcomes, `true` for a failure, oldest first.
    private var outcomes: [Bool] = []

    public init(configuration: Configuration = .init()) {
        self.configuration = configuration
    }

    /// The latest calls it judges and how many of them failed: the provider's recent error rate in this process.
    /// Opening the circuit starts the count afresh.
    public var recent: (calls: Int, failures: Int) {
        (self.outcomes.count, self.outcomes.count { $0 })
    }

    /// Whether a call may go to the provider now; in the half-open state the first caller becomes the probe.
    public mutating func allowsCall(at now: ContinuousClock.Instant) -> Bool {
        switch self.state {
        case .closed:
            return true
        case .open(let until):
            guard now >= until else { return false }
            self.state = .halfOpen(probing: true)
            return true
        case .halfOpen(let probing):
            guard !probing else { return false }
            self.state = .halfOpen(probing: true)
            return true
        }
    }

    /// Records how a call that was allowed went. Only failures of the provider count (not a refused request).
    public mutating func record(failure: Bool, at now: ContinuousClock.Instant) {
        if case .halfOpen = self.state {
            if failure {
                self.open(at: now)
            } else {
                self.state = .closed
                self.outcomes.removeAll()
            }
            return
        }
        self.outcomes.append(failure)
        if self.outcomes.count > self.configuration.window { self.outcomes.removeFirst(self.outcomes.count - self.configuration.window) }
        let failures = self.outcomes.count { $0 }
        if self.outcomes.count >= self.configuration.minimumCalls,
            Double(failures) >= self.configuration.failureRatio * Double(self.outcomes.count)
        {
            self.open(at: now)
        }
    }

    /// Opens the circuit at once, as a provider that cannot serve anyone (a bad key, no money) requires.
    public mutating func open(at now: ContinuousClock.Instant) {
        self.state = .open(until: now + self.configuration.openDuration)
        self.outcomes.removeAll()
    }
}
