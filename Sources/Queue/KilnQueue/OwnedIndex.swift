public import KilnCore
import KilnKeys
import RedisClient

/// The index of what each identity owns that no key name of its own leads to (docs/privacy.md): per shard, a sorted
/// set `owned:<tenant>:<identity>` of `j:<job id>` for its jobs and `k:<key>` for the keys that point at them
/// (idempotency records, devices' cooldowns), each scored by when it expires. The scripts keep it as they write
/// (`own` in common.lua); erasure reads it once the namespace records ``DataFormat/ownersIndexed``.
public struct OwnedIndex: NamespaceRole {
    /// What one listing of the namespace's earlier writes found and did.
    public struct Backfill: Sendable, Equatable {
        /// Jobs listed in their owners' indexes.
        public var jobs = 0
        /// Idempotency records and cooldowns listed in the indexes of their jobs' owners.
        public var pointers = 0
        /// Pointers whose job neither Redis nor PostgreSQL holds: they lead nowhere, and went.
        public var strayPointers = 0
        /// Quota days' counters and device sets that had no expiry, and got one.
        public var daysGivenExpiry = 0
    }

    /// Who owns each of a tenant's jobs that Redis no longer holds: PostgreSQL's records.
    public typealias RecordedOwners = @Sendable (TenantID, [JobID]) async throws -> [JobID: Identity]

    /// How long a quota day's key that had no expiry keeps it once given one: the longest any day's key lives.
    static let dayKeyLifetime: Duration = .seconds(3 * 86_400)

    let namespace: RedisNamespace

    init(_ namespace: RedisNamespace) {
        self.namespace = namespace
    }

    /// The format the namespace records: 1 when it records none, as releases before 1.0.0 wrote.
    public func recordedFormat() async throws -> Int {
        try await redis.send(["GET", shards.control.dataFormat]).string.flatMap(Int.init) ?? 1
    }

    /// Whether the namespace promises that every job and pointer is in its owner's index.
    public func isComplete() async throws -> Bool {
        try await recordedFormat() >= DataFormat.ownersIndexed
    }

    /// The members of the identity's index on one shard, by name.
    func members(of identity: Identity, tenant: TenantID, on keys: KeySpace) async throws -> [String] {
        (try await redis.send(["ZRANGE", keys.owned(tenant, identity), "0", "-1"]).array ?? []).compactMap(\.string)
    }

    /// Lists in their owners' indexes every job and pointer an earlier release wrote, one walk of each shard; gives
    /// the quota days' keys that lack an expiry one (``dayKeyLifetime``), since erasure finds those by their day; then
    /// records ``DataFormat/ownersIndexed``. Run it once every process runs this release: a process of an earlier
    /// one would go on writing jobs the index does not list.
    public func complete(recordedOwners: RecordedOwners) async throws -> Backfill {
        var backfill = Backfill()
        for keys in shards.all {
            var touched = Set<String>()
            try await namespace.scan(matching: keys.everyKey) { names in
                try await listJobs(names, keys, &backfill, &touched)
                try await listPointers(names, keys, recordedOwners, &backfill, &touched)
                try await expireDays(names, keys, &backfill)
            }
            try await settleExpiries(of: touched)
        }
        _ = try await redis.send(["SET", shards.control.dataFormat, String(DataFormat.ownersIndexed)])
        return backfill
    }

    /// The job hashes among `names`, each listed with its expiry.
    private func listJobs(_ names: [String], _ keys: KeySpace, _ backfill: inout Backfill, _ touched: inout Set<String>) async throws {
        let prefix = keys.prefix(.job)
        let ids = names.compactMap { $0.hasPrefix(prefix) ? JobID(validating: String($0.dropFirst(prefix.count))) : nil }
        guard !ids.isEmpty else { return }
        let replies = try await redis.pipeline(ids.flatMap { [["HMGET", keys.job($0), "tenant", "identity"], ["PEXPIRETIME", keys.job($0)]] })
        var commands: [[String]] = []
        for (index, id) in ids.enumerated() {
            let owner = replies[2 * index].array?.map(\.string) ?? []
            guard owner.count == 2, let tenant = owner[0].flatMap(TenantID.init(validating:)),
                let identity = owner[1].flatMap(Identity.init(validating:))
            else { continue }
            let key = keys.owned(tenant, identity)
            commands.append(["ZADD", key, Self.score(expiringAt: replies[2 * index + 1].int), "j:\(id)"])
            touched.insert(key)
        }
        backfill.jobs += commands.count
        if !commands.isEmpty { _ = try await redis.pipeline(commands) }
    }

    /// The idempotency records and cooldowns among `names`, each listed with its job's owner (from the job's hash, or
    /// PostgreSQL's record once the hash is gone); one whose job neither holds goes.
    private func listPointers(
        _ names: [String], _ keys: KeySpace, _ recordedOwners: RecordedOwners, _ backfill: inout Backfill, _ touched: inout Set<String>
    ) async throws {
        let families = [keys.prefix(.idempotency), keys.prefix(.cooldown)]
        let pointers = names.filter { name in families.contains { name.hasPrefix($0) } }
        guard !pointers.isEmpty else { return }
        let values = try await redis.pipeline(pointers.flatMap { [["GET", $0], ["PEXPIRETIME", $0]] })
        var found: [(key: String, tenant: TenantID, job: JobID, expires: Int64?)] = []
        for (index, key) in pointers.enumerated() {
            // `<the family's prefix><tenant>:…`.
            let family = families.first { key.hasPrefix($0) } ?? ""
            guard let tenant = TenantID(validating: String(key.dropFirst(family.count).prefix { $0 != ":" })),
                let job = values[2 * index].string.flatMap({ $0.split(separator: "|", maxSplits: 1).first }).flatMap({ JobID(validating: String($0)) }
                )
            else { continue }
            found.append((key, tenant, job, values[2 * index + 1].int))
        }
        let owners = try await redis.pipeline(found.map { ["HMGET", keys.job($0.job), "tenant", "identity"] })
        var owner: [JobID: Identity] = [:]
        var unknown: [TenantID: [JobID]] = [:]
        for (pointer, reply) in zip(found, owners) {
            let fields = reply.array?.map(\.string) ?? []
            if fields.count == 2, fields[0] == pointer.tenant.rawValue, let identity = fields[1].flatMap(Identity.init(validating:)) {
                owner[pointer.job] = identity
            } else {
                unknown[pointer.tenant, default: []].append(pointer.job)
            }
        }
        for (tenant, jobs) in unknown { owner.merge(try await recordedOwners(tenant, jobs)) { current, _ in current } }
        var commands: [[String]] = []
        var stray: [String] = []
        for pointer in found {
            guard let identity = owner[pointer.job] else {
                stray.append(pointer.key)
                continue
            }
            let key = keys.owned(pointer.tenant, identity)
            commands.append(["ZADD", key, Self.score(expiringAt: pointer.expires), "k:\(pointer.key)"])
            touched.insert(key)
        }
        backfill.pointers += commands.count
        if !commands.isEmpty { _ = try await redis.pipeline(commands) }
        if !stray.isEmpty { backfill.strayPointers += Int(try await redis.send(["DEL"] + stray).int ?? 0) }
    }

    /// Gives the quota days' keys among `names` that have no expiry one.
    private func expireDays(_ names: [String], _ keys: KeySpace, _ backfill: inout Backfill) async throws {
        let families = [keys.prefix(.quota), keys.prefix(.devices), keys.prefix(.subjects)]
        let days = names.filter { name in families.contains { name.hasPrefix($0) } }
        guard !days.isEmpty else { return }
        let lifetime = String(Self.dayKeyLifetime.milliseconds)
        // `NX`: only a key that has no expiry gets one.
        let replies = try await redis.pipeline(days.map { ["PEXPIRE", $0, lifetime, "NX"] })
        backfill.daysGivenExpiry += replies.reduce(0) { $0 + Int($1.int ?? 0) }
    }

    /// Each index expires with its last member, or never while one does not (as `owned_changed` in common.lua keeps it).
    private func settleExpiries(of indexes: Set<String>) async throws {
        guard !indexes.isEmpty else { return }
        let names = Array(indexes)
        let last = try await redis.pipeline(names.map { ["ZRANGE", $0, "-1", "-1", "WITHSCORES"] })
        let commands = zip(names, last).compactMap { name, reply -> [String]? in
            guard let score = reply.array?.last?.string else { return nil }
            return score == "inf" ? ["PERSIST", name] : ["PEXPIREAT", name, score]
        }
        if !commands.isEmpty { _ = try await redis.pipeline(commands) }
    }

    /// A member's score: its key's expiry in milliseconds (`PEXPIRETIME`), or `+inf` for a key without one.
    private static func score(expiringAt expiry: Int64?) -> String {
        guard let expiry, expiry > 0 else { return "+inf" }
        return String(expiry)
    }
}
