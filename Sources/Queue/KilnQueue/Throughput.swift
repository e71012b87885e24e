public import KilnCore

/// Attempts ended per minute, or per ten minutes, over the last hours, by class and by tenant, as the workers'
/// heartbeats counted them.
public struct Throughput: Sendable, Equatable {
    /// How long each count of a series covers, as `beat.lua` adds them up, and how long its counts are kept.
    public enum Bucket: Sendable, CaseIterable {
        case minute
        case tenMinutes

        public var length: Duration { self == .minute ? .seconds(60) : .seconds(600) }

        /// How long a bucket's counters stay: the longest series a reader can ask for is this long.
        public var retention: Duration { self == .minute ? .seconds(2 * 3600) : .seconds(25 * 3600) }
    }

    public let bucket: Bucket
    /// When each bucket began, in milliseconds since 1970 (Redis's clock), oldest first; the last is the current one,
    /// still counting.
    public let starts: [Int64]
    /// For each class, each outcome's count per bucket, in the order of ``starts`` (classes without any count are left
    /// out; an outcome without any count is all zeros).
    public let byClass: [JobClass: [AttemptOutcome: [Int]]]
    /// The same by tenant.
    public let byTenant: [String: [AttemptOutcome: [Int]]]

    public init(bucket: Bucket, starts: [Int64], byClass: [JobClass: [AttemptOutcome: [Int]]], byTenant: [String: [AttemptOutcome: [Int]]]) {
        self.bucket = bucket
        self.starts = starts
        self.byClass = byClass
        self.byTenant = byTenant
    }

    /// Reads the buckets' counter hashes (`c:<class>:<outcome>`, `t:<tenant>:<outcome>` → count), oldest first.
    init(bucket: Bucket, starts: [Int64], counters: [[String: Int]]) {
        var byClass: [JobClass: [AttemptOutcome: [Int]]] = [:]
        var byTenant: [String: [AttemptOutcome: [Int]]] = [:]
        let zeros = Dictionary(uniqueKeysWithValues: AttemptOutcome.allCases.map { ($0, Array(repeating: 0, count: starts.count)) })
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
        self.init(bucket: bucket, starts: starts, byClass: byClass, byTenant: byTenant)
    }
}
