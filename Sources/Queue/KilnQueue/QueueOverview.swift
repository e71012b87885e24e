public import KilnCore

/// The queue per class and per tenant, for an operator's overview (``QueueAdmin/overview(splitLimit:)``).
public struct QueueOverview: Sendable {
    /// What waits and runs in one lane, or in a sum of lanes.
    public struct Counts: Sendable, Hashable {
        /// Ready to be claimed.
        public var ready = 0
        /// How long the oldest ready job has waited, in milliseconds; nil when none is ready.
        public var oldestWaitMilliseconds: Int64?
        /// Running, as the workers' last heartbeats counted them.
        public var inFlight = 0
        /// Waiting for a delay or a retry's backoff, among the delayed jobs the split read (see ``delayedSplit``).
        public var delayed = 0
        /// Dead-lettered, among the dead letters the split read (see ``deadSplit``).
        public var dead = 0

        public init() {}

        /// Adds another's counts; the oldest wait is the longer of the two.
        public mutating func add(_ other: Counts) {
            ready += other.ready
            inFlight += other.inFlight
            delayed += other.delayed
            dead += other.dead
            if let wait = other.oldestWaitMilliseconds { oldestWaitMilliseconds = max(oldestWaitMilliseconds ?? wait, wait) }
        }
    }

    /// One class of one tenant.
    public struct Lane: Sendable, Hashable {
        public let jobClass: JobClass
        public let tenant: String
        public let counts: Counts

        public init(jobClass: JobClass, tenant: String, counts: Counts) {
            self.jobClass = jobClass
            self.tenant = tenant
            self.counts = counts
        }
    }

    /// How much of a set the per-lane counts cover: `counted` of its `total` members (the latest ones, for dead
    /// letters; the soonest due, for delayed jobs).
    public struct Split: Sendable, Hashable {
        public let total: Int
        public let counted: Int

        public init(total: Int, counted: Int) {
            self.total = total
            self.counted = counted
        }

        /// Whether the per-lane counts add up to the whole set.
        public var isComplete: Bool { counted >= total }
    }

    /// Every lane with something ready, running, delayed or dead, by class then tenant.
    public let lanes: [QueueOverview.Lane]
    /// Jobs that their identity's running cap holds back, by tenant (held jobs are not split by class).
    public let heldByTenant: [String: Int]
    /// The tenants and classes paused now: their jobs are admitted and wait, unclaimed.
    public let paused: Set<QueueLane>
    /// The running attempts in Redis (the lanes' `inFlight` comes from the heartbeats, and lags by up to a beat).
    public let inFlight: Int
    public let delayedSplit: Split
    public let deadSplit: Split
    /// Finished jobs not yet written to PostgreSQL.
    public let unrecorded: Int
    /// The workers alive, whose heartbeats gave the lanes' running counts.
    public let workers: [WorkerHeartbeat]

    public init(
        lanes: [QueueOverview.Lane], heldByTenant: [String: Int], paused: Set<QueueLane>, inFlight: Int, delayedSplit: Split, deadSplit: Split,
        unrecorded: Int, workers: [WorkerHeartbeat]
    ) {
        self.lanes = lanes
        self.heldByTenant = heldByTenant
        self.paused = paused
        self.inFlight = inFlight
        self.delayedSplit = delayedSplit
        self.deadSplit = deadSplit
        self.unrecorded = unrecorded
        self.workers = workers
    }

    /// The lanes summed per class.
    public var byClass: [JobClass: Counts] {
        lanes.reduce(into: [:]) { sums, lane in sums[lane.jobClass, default: Counts()].add(lane.counts) }
    }

    /// The lanes summed per tenant.
    public var byTenant: [String: Counts] {
        lanes.reduce(into: [:]) { sums, lane in sums[lane.tenant, default: Counts()].add(lane.counts) }
    }
}
