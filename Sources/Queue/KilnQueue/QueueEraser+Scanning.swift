import KilnCore
import KilnKeys
import RedisClient

/// Erasure in a namespace whose format does not promise the owners' index (format 1, written by releases before it):
/// nothing leads from an identity to its jobs or devices, so each step walks every shard with `SCAN` (an identity
/// whose quota subject changed — a partner link made or ended — left keys on its earlier shard too).
extension QueueEraser {
    /// The identity's jobs: every job hash of the namespace, read for its owner.
    func scannedJobs(of identity: Identity, tenant: TenantID) async throws -> [JobID] {
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

    /// Hands over the tenant's idempotency records and cooldowns, a page of names at a time.
    func scanPointers(of tenant: TenantID, _ page: ([String]) async throws -> Void) async throws {
        for keys in shards.all {
            for family in [KeyPattern.idempotency, KeyPattern.cooldown] {
                try await namespace.scan(matching: keys.prefix(family, tenant.rawValue) + "*", page)
            }
        }
    }

    /// Deletes, in one walk of each shard, the keys in `own`, the quota days' counters of `counted` and devices of
    /// `subjects`, and takes `subjects` out of every device's sets of the subjects it served.
    func eraseScanning(own: (KeySpace) -> Set<String>, counted: [String], subjects: [String], tenant: TenantID) async throws -> Int {
        var removed = 0
        for keys in shards.all {
            let own = own(keys)
            // Keys of one quota day end in the day's label, `yyyyMMdd`: these are the prefixes before it.
            let daily =
                counted.map { keys.prefix(.quota, tenant.rawValue, $0) } + subjects.map { keys.prefix(.devices, tenant.rawValue, $0) }
            let served = keys.prefix(.subjects, tenant.rawValue)
            try await namespace.scan(matching: keys.everyKey) { names in
                let doomed = names.filter { name in own.contains(name) || daily.contains { Self.isDayKey(name, prefix: $0) } }
                var commands = names.filter { $0.hasPrefix(served) }.map { ["SREM", $0] + subjects }
                if !doomed.isEmpty { commands.append(["DEL"] + doomed) }
                guard !commands.isEmpty else { return }
                removed += try await redis.pipeline(commands).reduce(0) { $0 + Int($1.int ?? 0) }
            }
        }
        return removed
    }

    /// Whether `name` is `prefix` followed by a quota day's label: an identity that is a prefix of another
    /// (`user-1`, `user-1:2`) never matches the other's keys.
    static func isDayKey(_ name: String, prefix: String) -> Bool {
        guard name.hasPrefix(prefix) else { return false }
        let day = name.utf8.dropFirst(prefix.utf8.count)
        return day.count == 8 && day.allSatisfy { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }
    }
}
