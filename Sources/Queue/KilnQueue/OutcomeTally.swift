public import KilnCore

/// Attempts a worker settled since its last heartbeat, by class, tenant and outcome: the heartbeat adds them to the
/// fleet's per-minute counters, so counting costs Redis nothing per job.
public struct OutcomeTally: Sendable, Equatable {
    /// One count's class, tenant and outcome.
    public struct Key: Sendable, Hashable {
        public let jobClass: JobClass
        public let tenant: String
        public let outcome: AttemptOutcome

        public init(jobClass: JobClass, tenant: String, outcome: AttemptOutcome) {
            self.jobClass = jobClass
            self.tenant = tenant
            self.outcome = outcome
        }
    }

    public private(set) var counts: [Key: Int] = [:]

    public init() {}

    public var isEmpty: Bool { counts.isEmpty }

    public mutating func add(_ outcome: AttemptOutcome, jobClass: JobClass, tenant: String, count: Int = 1) {
        counts[Key(jobClass: jobClass, tenant: tenant, outcome: outcome), default: 0] += count
    }

    /// Adds another tally's counts (a heartbeat that failed gives its counts back this way).
    public mutating func merge(_ other: OutcomeTally) {
        counts.merge(other.counts, uniquingKeysWith: +)
    }

    /// The counter fields of a minute's hash: `c:<class>:<outcome>` and `t:<tenant>:<outcome>`, each with its count.
    var fields: [(field: String, count: Int)] {
        var fields: [String: Int] = [:]
        for (key, count) in counts {
            fields["c:\(key.jobClass.rawValue):\(key.outcome.rawValue)", default: 0] += count
            fields["t:\(key.tenant):\(key.outcome.rawValue)", default: 0] += count
        }
        return fields.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
    }
}
