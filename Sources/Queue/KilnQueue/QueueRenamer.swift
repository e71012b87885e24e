public import KilnCore
import KilnKeys
import RedisClient

/// Renaming identities in Redis (`kiln identity migrate-namespaces`, docs/identity.md). Like erasure, it finds what
/// names an identity by walking the namespace with `SCAN`: it is rare, and a walk costs Redis only short steps.
///
/// It works on a namespace of one shard: a renamed identity would belong on another shard, and moving what it holds
/// between shards is a move of its own (docs/scaling.md, "Moving a tenant"). Run it before spreading Redis over
/// shards.
public struct QueueRenamer: NamespaceRole {
    /// What one rename did.
    public struct Outcome: Sendable, Equatable {
        /// How many of the identity's jobs now name the new identity.
        public var jobs: Int
        /// Its jobs running, or finished and not yet recorded: their records reach PostgreSQL under the old name, so
        /// the rename is to be repeated once they have ended.
        public var pending: [JobID]
    }

    let namespace: RedisNamespace

    public init(_ namespace: RedisNamespace) {
        self.namespace = namespace
    }

    /// The one shard's keys. - Throws: ``QueueConfigurationError`` when the namespace has several.
    private var keys: KeySpace {
        get throws {
            guard shards.count == 1 else {
                throw QueueConfigurationError("renaming identities needs a namespace of one shard, and this one has \(shards.count)")
            }
            return shards.control
        }
    }

    /// The identities of `tenant` that Redis holds jobs or quota days of, among those `included` accepts.
    public func identities(tenant: TenantID, where included: (String) -> Bool) async throws -> Set<String> {
        var found = Set<String>()
        let keys = try self.keys
        let jobs = keys.prefix(.job)
        try await namespace.scan(matching: jobs + "*") { names in
            let owners = try await redis.pipeline(names.map { ["HMGET", $0, "tenant", "identity"] })
            for owner in owners {
                let fields = owner.array?.map(\.string) ?? []
                if fields.count == 2, fields[0] == tenant.rawValue, let identity = fields[1], included(identity) { found.insert(identity) }
            }
        }
        // `<prefix><subject>:<yyyyMMdd>`: the subject is what lies between.
        let quota = keys.prefix(.quota, tenant.rawValue)
        try await namespace.scan(matching: quota + "*") { names in
            for name in names where name.utf8.count > quota.utf8.count + 9 {
                let subject = String(name.dropFirst(quota.count).dropLast(9))
                if QueueEraser.isDayKey(name, prefix: keys.prefix(.quota, tenant.rawValue, subject)), included(subject) { found.insert(subject) }
            }
        }
        return found
    }

    /// Renames `from` to `to` in every key, job and set that names it, in one script; merges with what `to` already
    /// holds. Repeating it finds nothing more of `from`, or the jobs that were pending.
    public func rename(_ from: Identity, to: Identity, tenant: TenantID) async throws -> Outcome {
        let keys = try self.keys
        var items = try await namespace.eraser.jobs(of: from, tenant: tenant).map(RenameCall.Item.job)
        var days = Set<String>()
        for family in [KeyPattern.quota, KeyPattern.devices] {
            // Matched on the tenant's keys, never on a pattern spelled with the identity, whose `*`, `?` or `[` would
            // be wildcards.
            let prefix = keys.prefix(family, tenant.rawValue, from.rawValue)
            try await namespace.scan(matching: keys.prefix(family, tenant.rawValue) + "*") { names in
                for name in names where QueueEraser.isDayKey(name, prefix: prefix) { days.insert(String(name.dropFirst(prefix.count))) }
            }
        }
        items += days.sorted().map(RenameCall.Item.day)
        try await namespace.scan(matching: keys.prefix(.subjects, tenant.rawValue) + "*") { names in
            let members = try await redis.pipeline(names.map { ["SISMEMBER", $0, from.rawValue] })
            items += zip(names, members).filter { $1.int == 1 }.map { RenameCall.Item.served(key: $0.0) }
        }
        let call = RenameCall(keySpace: keys, tenant: tenant, from: from, to: to, items: items)
        let outcome = try RenameCall.outcome(of: try await redis.evaluate(call.call(scripts.rename)))
        return Outcome(jobs: outcome.jobs, pending: outcome.pending)
    }

    /// Those of `jobs` still running, or finished and not yet recorded.
    public func unfinished(_ jobs: [JobID]) async throws -> [JobID] {
        guard !jobs.isEmpty else { return [] }
        let keys = try self.keys
        let replies = try await redis.pipeline(jobs.flatMap { [["HGET", keys.job($0), "state"], ["ZSCORE", keys.unrecorded, $0.rawValue]] })
        return jobs.indices.filter { replies[2 * $0].string == "running" || replies[2 * $0 + 1].string != nil }.map { jobs[$0] }
    }
}
