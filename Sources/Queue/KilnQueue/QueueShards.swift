public import KilnCore
public import KilnKeys
import RedisClient

/// The shards of a namespace, and which one holds what (docs/queue.md, "Shards").
///
/// An admission decision and a job's every state change touch one shard, so each script stays in one Redis Cluster
/// slot: the shard of an identity's work is a stable function of its tenant and its quota subject (itself, or the pair
/// it shares a pool with), and a job's id names its shard (``JobID/shard``). A tenant lives on one shard, from the hash
/// of its name, unless `tenantShards` spreads its subjects over several neighbouring ones. What is global — the
/// fleet's heartbeats, the providers' slots and parks, MCP's sessions — lives on shard 0, the control shard.
public struct QueueShards: Sendable {
    /// Each shard's keys, by index.
    public let all: [KeySpace]
    private let spread: [String: Int]

    init(_ configuration: QueueConfiguration) throws {
        guard (1...JobID.shardLimit).contains(configuration.shards) else {
            throw QueueConfigurationError("shards must be between 1 and \(JobID.shardLimit), not \(configuration.shards)")
        }
        if let (tenant, count) = configuration.tenantShards.first(where: { $0.value < 1 }) {
            throw QueueConfigurationError("tenant \(tenant) must spread over at least 1 shard, not \(count)")
        }
        let count = configuration.shards
        all = (0..<count).map { shard in
            count == 1 ? KeySpace(namespace: configuration.namespace) : KeySpace(tag: Self.tag(configuration.namespace, shard: shard, of: count))
        }
        spread = configuration.tenantShards
    }

    public var count: Int { all.count }

    /// Shard 0: the fleet, the providers and MCP.
    public var control: KeySpace { all[0] }

    /// The shard that holds a job; nil when its id names a shard this namespace does not have (no such job here).
    public func keys(of job: JobID) -> KeySpace? {
        job.shard < all.count ? all[job.shard] : nil
    }

    /// The index of the shard that holds `owner`'s work: an identity's standing, or a quota subject's counters, jobs,
    /// running cap and idempotency keys.
    public func shard(tenant: TenantID, owner: String) -> Int {
        guard all.count > 1 else { return 0 }
        let home = Self.stableHash(tenant.rawValue) % UInt64(all.count)
        let width = UInt64(min(max(spread[tenant.rawValue] ?? 1, 1), all.count))
        return Int((home + Self.stableHash(owner) % width) % UInt64(all.count))
    }

    /// The keys of the shard that holds `owner`'s work.
    public func keys(tenant: TenantID, owner: String) -> KeySpace {
        all[shard(tenant: tenant, owner: owner)]
    }

    /// Shard `shard`'s hash tag: `<namespace>:<shard>`, or `<namespace>:<shard>.<n>` with the first `n` that puts it in
    /// the `shard`-th of `count` equal ranges of the cluster's slots. A cluster made with `redis-cli --cluster create`
    /// gives each master an equal range, so with a multiple of the masters' number of shards each master holds as many
    /// shards (the tags' hashes alone would put two of three shards on one master two times in three).
    static func tag(_ namespace: String, shard: Int, of count: Int) -> String {
        let slots = (shard * RedisKeySlot.count / count)..<((shard + 1) * RedisKeySlot.count / count)
        let plain = "\(namespace):\(shard)"
        guard !slots.contains(RedisKeySlot.of("{\(plain)}")) else { return plain }
        var attempt = 1
        while !slots.contains(RedisKeySlot.of("{\(plain).\(attempt)}")) { attempt += 1 }
        return "\(plain).\(attempt)"
    }

    /// FNV-1a over the UTF-8 bytes: the same in every process and every release (Swift's `Hasher` is seeded per
    /// process).
    static func stableHash(_ text: String) -> UInt64 {
        text.utf8.reduce(0xcbf2_9ce4_8422_2325 as UInt64) { ($0 ^ UInt64($1)) &* 0x0000_0100_0000_01b3 }
    }
}

/// A queue configuration that cannot work, e.g. a shard count out of range.
public struct QueueConfigurationError: Error, CustomStringConvertible {
    public let description: String

    init(_ description: String) {
        self.description = description
    }
}
