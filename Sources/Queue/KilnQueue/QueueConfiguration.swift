/// How the queue engine keeps its keys and times its leases.
public struct QueueConfiguration: Sendable {
    /// Prefix and hash tag of every key: a shard's keys live in the slot of its tag, so each script touches one Redis
    /// Cluster slot. Tests use a namespace of their own.
    public var namespace: String = "kiln"
    /// How many shards (hash tags) the namespace's keys are spread over: `{kiln}` alone for 1, `{kiln:0…}`…`{kiln:N-1…}`
    /// for more (docs/queue.md, "Shards"). Every process of a fleet must use the same number.
    public var shards: Int = 1
    /// How many shards a tenant's identities spread over, for the tenants that need more than one (the rest live on
    /// one shard each). Every process of a fleet must use the same map.
    public var tenantShards: [String: Int] = [:]
    /// How long a claim stays valid without renewal; a killed worker's jobs come back after at most this.
    public var leaseDuration: Duration = .seconds(5)
    /// Events kept per job stream (approximately: Redis trims whole nodes).
    public var streamCap: Int = 1000
    /// The most events that wait for one follower of a stream (an SSE client, an MCP answer) before it is dropped to
    /// resume from Redis: a client that stops reading costs the node this many events at most, shared with the stream's
    /// other followers. Further behind than the stream keeps (``streamCap``), it would lose events anyway.
    public var followerQueueLimit: Int = 1000
    /// How long an idempotency key remembers its job.
    public var idempotencyTTL: Duration = .seconds(86_400)
    /// How long a finished job stays readable in Redis after PostgreSQL has its record.
    public var retention: Duration = .seconds(3600)
    /// How long a metered job's reservation holds its units at most. Every job ends and settles its reservation, so
    /// this only bounds what a job whose hash was lost (purged, or Redis lost data) keeps from its subject.
    public var reservationLifetime: Duration = .seconds(86_400)
    /// How many times a job's lease may expire (its worker died or stalled) before the job is buried as `dead` with
    /// `lease_expired_repeatedly`. A lost lease is the worker's failure and does not spend the job's attempt, so this
    /// is what ends a job that kills every worker that runs it.
    public var maxLeaseLosses: Int = 5
    /// The most expired leases, or due delayed jobs, one claim moves.
    public var sweepLimit: Int = 100

    public init() {}
}
