public import KilnCore

/// Attempts ended per minute over the last minutes, by class and by tenant, as the workers' heartbeats counted them.
public struct Throughput: Sendable, Equatable {
    /// When each minute began, in milliseconds since 1970 (Redis's clock), oldest first; the last is the current
    /// minute, still counting.
    public let minutes: [Int64]
    /// For each class, each outcome's count per minute, in the order of ``minutes`` (classes without any count are
    /// left out; an outcome without any count is all zeros).
    public let byClass: [JobClass: [AttemptOutcome: [Int]]]
    /// The same by tenant.
    public let byTenant: [String: [AttemptOutcome: [Int]]]

    public init(minutes: [Int64], byClass: [JobClass: [AttemptOutcome: [Int]]], byTenant: [String: [AttemptOutcome: [Int]]]) {
        self.minutes = minutes
        self.byClass = byClass
        self.byTenant = byTenant
    }

    /// Reads the minutes' counter hashes (`c:<class>:<outcome>`, `t:<tenant>:<outcome>` → count), oldest first.
    init(minutes: [Int64], counters: [[String: Int]]) {
        var byClass: [JobClass: [AttemptOutcome: [Int]]] = [:]
        var byTenant: [String: [AttemptOutcome: [Int]]] = [:]
        let zeros = Dictionary(uniqueKeysWithValues: AttemptOutcome.allCases.map { ($0, Array(repeating: 0, count: minutes.count)) })
        for (index, fields) in counters.enumerated() {
            for (field, count) in fields {
                let parts = field.split(separator: ":", maxSplits: 2).map(String.init)
                guard parts.count == 3, let outcome = AttemptOutcome(rawValue: parts[2]) else { continue }
                if parts[0] == "c", let jobClass = JobClass(rawValue: parts[1]) {
                    byClass[jobClass, default: zeros][outcome]?[index] += count
                } else if parts[0] == "t" {
                    byTenant[parts[1], default: zeros][outcome]?[index] += count
                }
            }
        }
        self.init(minutes: minutes, byClass: byClass, byTenant: byTenant)
    }
}
