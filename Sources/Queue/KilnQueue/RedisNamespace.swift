import KilnKeys
public import RedisClient

/// One Redis namespace of Kiln's: the connections, its shards' key names, the loaded scripts and the queue's settings,
/// shared by the role types that work on it — ``JobQueue``, ``QuotaBook``, ``StandingCache``, ``QueueEraser``, ``QueueRenamer``,
/// ``QueueAdmin`` and ``FleetRegistry``.
public final class RedisNamespace: Sendable {
    public let configuration: QueueConfiguration
    /// The shards, and the names of every key in each.
    public let shards: QueueShards
    /// Redis: shared, pipelined connections, and connections of their own for blocking reads (wake-ups, event
    /// streams).
    public let redis: RedisPool
    let scripts: QueueScripts
    /// Each worker's view of the shards it claims from, when there are several.
    let balancer = ShardClaimBalancer()
    /// The events running attempts append, many jobs' in one call.
    let events: EventWrites
    /// The streams this process's clients follow, read a shard at a time.
    public let followers: StreamFollowers

    public init(redis: RedisPool, configuration: QueueConfiguration = QueueConfiguration()) throws {
        self.configuration = configuration
        self.shards = try QueueShards(configuration)
        self.redis = redis
        self.scripts = try QueueScripts.loaded.get()
        events = EventWrites(redis: redis, script: scripts.event, shards: shards, configuration: configuration)
        followers = StreamFollowers(redis: redis, shards: shards, queueLimit: configuration.followerQueueLimit)
    }

    /// Loads the scripts, so a broken one stops the process at start rather than at its first call, and checks that
    /// this release reads the namespace's data: it records ``DataFormat/written`` in a namespace that records no format,
    /// and throws ``DataFormatError`` when the recorded one is not ``DataFormat/readable``.
    public func prepare() async throws {
        try await redis.load(scripts.all)
        let key = shards.control.dataFormat
        let recorded = try await redis.send(["SET", key, String(DataFormat.written), "NX", "GET"]).string ?? String(DataFormat.written)
        guard let format = Int(recorded), DataFormat.readable.contains(format) else { throw DataFormatError(recorded: recorded) }
    }

    /// The jobs: submitting, claiming, settling, events.
    public var queue: JobQueue { JobQueue(self) }
    /// Quota counters and abuse blocks.
    public var quota: QuotaBook { QuotaBook(self) }
    /// Identities' standings cached from PostgreSQL.
    public var standings: StandingCache { StandingCache(self) }
    /// The jobs that have not ended, listed for the console.
    public var liveJobs: LiveJobs { LiveJobs(self) }
    /// An identity's erasure from Redis.
    public var eraser: QueueEraser { QueueEraser(self) }
    /// What each identity owns that erasure finds through it.
    public var ownedIndex: OwnedIndex { OwnedIndex(self) }
    /// How often identities may be erased through the API.
    public var erasureLimits: ErasureLimits { ErasureLimits(self) }
    /// Identities renamed in Redis.
    public var renamer: QueueRenamer { QueueRenamer(self) }
    /// What operators read and do: statistics, dead letters.
    public var admin: QueueAdmin { QueueAdmin(self) }
    /// The workers alive, and the attempts they settled per minute.
    public var fleet: FleetRegistry { FleetRegistry(self) }
    /// MCP's sessions and resumable answers.
    public var mcp: MCPSessionStore { MCPSessionStore(self) }

    /// Walks the keys matching `pattern`, a page (about 1,000 keys) at a time.
    func scan(matching pattern: String, _ page: ([String]) async throws -> Void) async throws {
        var cursor = "0"
        repeat {
            let reply = try await redis.send(["SCAN", cursor, "MATCH", pattern, "COUNT", "1000"]).array ?? []
            cursor = reply.first?.string ?? "0"
            let names = (reply.count > 1 ? reply[1].array ?? [] : []).compactMap(\.string)
            if !names.isEmpty { try await page(names) }
        } while cursor != "0"
    }

    /// Deletes every key of this namespace, on every shard (tests and benchmarks clean up with it). - Returns: how many.
    @discardableResult
    public func deleteAll() async throws -> Int {
        var deleted = 0
        for shard in shards.all {
            try await scan(matching: shard.everyKey) { names in
                deleted += Int(try await redis.send(["UNLINK"] + names).int ?? 0)
            }
        }
        return deleted
    }
}

/// A role type over a ``RedisNamespace``: its connections, keys, scripts and settings, by name.
protocol NamespaceRole: Sendable {
    var namespace: RedisNamespace { get }
}

extension NamespaceRole {
    var configuration: QueueConfiguration { namespace.configuration }
    var shards: QueueShards { namespace.shards }
    var redis: RedisPool { namespace.redis }
    var scripts: QueueScripts { namespace.scripts }
}
