public import KilnCore

/// A picture of the queue for operators.
public struct QueueStats: Sendable {
    /// Ready jobs by tenant, class and priority.
    public struct Depth: Sendable, Hashable {
        public let tenant: String
        public let jobClass: JobClass
        public let priority: Priority
        public let count: Int
        /// How long the oldest of them has waited, in milliseconds.
        public let oldestWaitMilliseconds: Int64?
    }

    public let ready: [Depth]
    public let inFlight: Int
    public let delayed: Int
    public let dead: Int
    public let unrecorded: Int
}
