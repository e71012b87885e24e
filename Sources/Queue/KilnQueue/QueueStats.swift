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

        public init(tenant: String, jobClass: JobClass, priority: Priority, count: Int, oldestWaitMilliseconds: Int64?) {
            self.tenant = tenant
            self.jobClass = jobClass
            self.priority = priority
            self.count = count
            self.oldestWaitMilliseconds = oldestWaitMilliseconds
        }
    }

    public let ready: [Depth]
    public let inFlight: Int
    public let delayed: Int
    public let dead: Int
    public let unrecorded: Int
    /// The tenants and classes an operator paused: their jobs are admitted and wait, unclaimed.
    public let paused: Set<QueueLane>

    public init(ready: [Depth], inFlight: Int, delayed: Int, dead: Int, unrecorded: Int, paused: Set<QueueLane> = []) {
        self.ready = ready
        self.inFlight = inFlight
        self.delayed = delayed
        self.dead = dead
        self.unrecorded = unrecorded
        self.paused = paused
    }
}
