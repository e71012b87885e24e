public import KilnCore
import KilnKeys
import RedisClient

/// Erasing an identity from Redis (docs/privacy.md). Nothing in Redis indexes jobs or devices by identity, so erasure
/// walks every shard of the namespace with `SCAN` (an identity whose quota subject changed — a partner link made or
/// ended — left keys on its earlier shard too): it is rare, and a walk costs Redis only short steps between other
/// clients' commands.
public struct QueueEraser: NamespaceRole {
    let namespace: RedisNamespace

    public init(_ namespace: RedisNamespace) {
        self.namespace = namespace
    }

    /// The ids of the identity's jobs that Redis holds, in whatever state.
    public func jobs(of identity: Identity, tenant: TenantID) async throws -> [JobID] {
        var found: [JobID] = []
        for keys in shards.all {
            let prefix = keys.prefix(.job)
            try await namespace.scan(matching: prefix + "*") { names in
                let ids = names.compactMap { JobID(validating: String($0.dropFirst(prefix.count))) }
                guard !ids.isEmpty else { return }
                let owners = try await redis.pipeline(ids.map { ["HMGET", keys.job($0), "tenant", "identity"] })
                for (id, owner) in zip(ids, owners) {
                    let fields = owner.array?.map(\.string) ?? []
                    if fields.count == 2, fields[0] == tenant.rawValue, fields[1] == identity.rawValue { found.append(id) }
                }
            }
        }
        return found
    }

    /// Removes the identity's jobs that have not started, asks its running ones to stop, and deletes its finished
    /// ones that PostgreSQL has recorded, with their events (`erase.lua`, 100 jobs a call).
    public func erase(_ jobs: [JobID], of identity: Identity, tenant: TenantID) async throws -> ErasedJobs {
        var outcome = ErasedJobs()
        for (keys, jobs) in Dictionary(grouping: jobs, by: { shards.keys(of: $0) }) {
            guard let keys else { continue }
            for start in stride(from: 0, to: jobs.count, by: 100) {
                let batch = jobs[start..<min(start + 100, jobs.count)]
                let call = EraseCall(keySpace: keys, tenant: tenant, identity: identity, items: Array(batch))
                let erased = try EraseCall.outcome(of: try await redis.evaluate(call.call(scripts.erase)))
                outcome.erased += erased.erased
                outcome.pending += erased.pending
            }
        }
        return outcome
    }

    /// Deletes the idempotency records and device cooldowns that point at `jobs` (their values are a job id, or
    /// `job id|body hash`): such keys are named by a digest or by a device, not by the identity, so only the jobs
    /// lead to them. Call it before the jobs' records go, while their ids can still be found. - Returns: how many.
    @discardableResult
    public func erasePointers(to jobs: Set<JobID>, tenant: TenantID) async throws -> Int {
        guard !jobs.isEmpty else { return 0 }
        var removed = 0
        for keys in shards.all {
            for family in [KeyPattern.idempotency, KeyPattern.cooldown] {
                try await namespace.scan(matching: keys.prefix(family, tenant.rawValue) + "*") { names in
                    let values = try await redis.pipeline(names.map { ["GET", $0] })
                    let doomed = zip(names, values).compactMap { name, value -> String? in
                        let id = value.string.flatMap { $0.split(separator: "|", maxSplits: 1).first }.flatMap { JobID(validating: String($0)) }
                        return id.map(jobs.contains) == true ? name : nil
                    }
                    if !doomed.isEmpty { removed += Int(try await redis.send(["DEL"] + doomed).int ?? 0) }
                }
            }
        }
        return removed
    }

    /// Deletes every key that names the identity: its quota counters and reservations, running count and held jobs,
    /// devices of the day, velocity, block and cached standing; its entries in the abuse log and the index of blocks;
    /// and the identity in the sets of identities its devices served. Call it once no job of the identity is left
    /// unfinished, since those count on the counters. - Returns: how many keys, members and entries went.
    @discardableResult
    public func eraseKeys(of identity: Identity, tenant: TenantID) async throws -> Int {
        let subject = identity.rawValue
        var removed = 0
        for keys in shards.all {
            let own = Set(
                [
                    keys.reservations(tenant, subject), keys.block(tenant, subject), keys.standing(tenant, subject),
                    keys.running(tenant, subject), keys.held(tenant, subject), keys.velocity(tenant, subject),
                ])
            // Keys of one quota day end in the day's label, `yyyyMMdd`: these are the prefixes before it.
            let daily = [keys.prefix(.quota, tenant.rawValue, subject), keys.prefix(.devices, tenant.rawValue, subject)]
            removed += try await eraseScanning(keys, own: own, daily: daily, servedBy: [subject], tenant: tenant)
            removed += Int(try await redis.send(["ZREM", keys.blocks, "\(tenant):\(subject)"]).int ?? 0)
            removed += try await eraseAbuseLogEntries(keys, of: subject, tenant: tenant)
        }
        return removed
    }

    /// Deletes the devices that partner pools (`pair:<id>` subjects) used, day by day, and takes the pools out of the
    /// sets of subjects those devices served: a device an identity used while linked is recorded under its pool, not
    /// under the identity. The pools' quota counters stay: they name no one (docs/privacy.md). Call it while the
    /// partner links still name the pools. - Returns: how many keys and members went.
    @discardableResult
    public func eraseDevices(ofPools pools: [String], tenant: TenantID) async throws -> Int {
        guard !pools.isEmpty else { return 0 }
        var removed = 0
        for keys in shards.all {
            let daily = pools.map { keys.prefix(.devices, tenant.rawValue, $0) }
            removed += try await eraseScanning(keys, own: [], daily: daily, servedBy: pools, tenant: tenant)
        }
        return removed
    }

    /// One walk of a shard that deletes the keys in `own` and the quota days' keys after the `daily` prefixes,
    /// and removes `servedBy` from every device's set of the subjects it served (named by the device).
    private func eraseScanning(_ keys: KeySpace, own: Set<String>, daily: [String], servedBy subjects: [String], tenant: TenantID) async throws -> Int
    {
        let served = keys.prefix(.subjects, tenant.rawValue)
        var removed = 0
        try await namespace.scan(matching: keys.everyKey) { names in
            let doomed = names.filter { name in own.contains(name) || daily.contains { Self.isDayKey(name, prefix: $0) } }
            var commands = names.filter { $0.hasPrefix(served) }.map { ["SREM", $0] + subjects }
            if !doomed.isEmpty { commands.append(["DEL"] + doomed) }
            guard !commands.isEmpty else { return }
            removed += try await redis.pipeline(commands).reduce(0) { $0 + Int($1.int ?? 0) }
        }
        return removed
    }

    /// Deletes a shard's abuse log's entries about the subject (the log is capped, so reading it whole is bounded).
    private func eraseAbuseLogEntries(_ keys: KeySpace, of subject: String, tenant: TenantID) async throws -> Int {
        let entries = try await redis.send(["XRANGE", keys.abuseLog, "-", "+"]).streamEntries
        let ids = entries.filter { $0.fields["tenant"] == tenant.rawValue && $0.fields["subject"] == subject }.map(\.id)
        guard !ids.isEmpty else { return 0 }
        return Int(try await redis.send(["XDEL", keys.abuseLog] + ids).int ?? 0)
    }

    /// Whether `name` is `prefix` followed by a quota day's label: an identity that is a prefix of another
    /// (`user-1`, `user-1:2`) never matches the other's keys.
    static func isDayKey(_ name: String, prefix: String) -> Bool {
        guard name.hasPrefix(prefix) else { return false }
        let day = name.utf8.dropFirst(prefix.utf8.count)
        return day.count == 8 && day.allSatisfy { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }
    }
}
