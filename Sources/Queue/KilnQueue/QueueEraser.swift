public import KilnCore
import Foundation
import KilnKeys
import RedisClient

/// Erasing an identity from Redis (docs/privacy.md). Its jobs, and the keys that point at them, are found in its
/// index (``OwnedIndex``); the keys named by it, by their names and the quota days that may still hold them. In a
/// namespace whose format does not promise the index yet, each step walks the shards instead
/// (QueueEraser+Scanning.swift).
public struct QueueEraser: NamespaceRole {
    let namespace: RedisNamespace

    public init(_ namespace: RedisNamespace) {
        self.namespace = namespace
    }

    private var index: OwnedIndex { namespace.ownedIndex }

    /// The ids of the identity's jobs that Redis holds, in whatever state.
    public func jobs(of identity: Identity, tenant: TenantID) async throws -> [JobID] {
        guard try await index.isComplete() else { return try await scannedJobs(of: identity, tenant: tenant) }
        var found: [JobID] = []
        for keys in shards.all {
            found += try await index.members(of: identity, tenant: tenant, on: keys).compactMap { member in
                member.hasPrefix("j:") ? JobID(validating: String(member.dropFirst(2))) : nil
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
    /// (or the identity's index) lead to them. Call it before the jobs' records go, while their ids can still be found.
    /// - Returns: how many.
    @discardableResult
    public func erasePointers(to jobs: Set<JobID>, of identity: Identity, tenant: TenantID) async throws -> Int {
        guard !jobs.isEmpty else { return 0 }
        var removed = 0
        if try await index.isComplete() {
            for keys in shards.all {
                let members = try await index.members(of: identity, tenant: tenant, on: keys)
                removed += try await erasePointers(among: members.filter { $0.hasPrefix("k:") }.map { String($0.dropFirst(2)) }, to: jobs)
            }
        } else {
            try await scanPointers(of: tenant) { removed += try await erasePointers(among: $0, to: jobs) }
        }
        return removed
    }

    /// Deletes those of the keys `names` whose value points at one of `jobs`.
    private func erasePointers(among names: [String], to jobs: Set<JobID>) async throws -> Int {
        guard !names.isEmpty else { return 0 }
        let values = try await redis.pipeline(names.map { ["GET", $0] })
        let doomed = zip(names, values).compactMap { name, value -> String? in
            let id = value.string.flatMap { $0.split(separator: "|", maxSplits: 1).first }.flatMap { JobID(validating: String($0)) }
            return id.map(jobs.contains) == true ? name : nil
        }
        guard !doomed.isEmpty else { return 0 }
        return Int(try await redis.send(["DEL"] + doomed).int ?? 0)
    }

    /// Deletes every key that names the identity: its quota counters and reservations, running count and held jobs,
    /// devices of the day, velocity, block, cached standing and index; its entries in the abuse log and the indexes of
    /// blocks; and the identity in the sets of identities its devices served. Call it once no job of the identity is
    /// left unfinished, since those count on the counters. - Returns: how many keys, members and entries went.
    @discardableResult
    public func eraseKeys(of identity: Identity, tenant: TenantID) async throws -> Int {
        let subject = identity.rawValue
        let own = { (keys: KeySpace) -> Set<String> in
            [
                keys.reservations(tenant, subject), keys.block(tenant, subject), keys.standing(tenant, subject),
                keys.running(tenant, subject), keys.held(tenant, subject), keys.velocity(tenant, subject), keys.owned(tenant, identity),
            ]
        }
        var removed =
            try await index.isComplete()
            ? try await eraseDays(own: own, counted: [subject], subjects: [subject], tenant: tenant)
            : try await eraseScanning(own: own, counted: [subject], subjects: [subject], tenant: tenant)
        removed += Int(try await redis.send(["ZREM", shards.control.operatorBlocks, "identity|\(tenant)|\(subject)"]).int ?? 0)
        for keys in shards.all {
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
        return try await index.isComplete()
            ? try await eraseDays(own: { _ in [] }, counted: [], subjects: pools, tenant: tenant)
            : try await eraseScanning(own: { _ in [] }, counted: [], subjects: pools, tenant: tenant)
    }

    /// Deletes the keys in `own`, the quota days' counters of `counted` and devices of `subjects`, and takes
    /// `subjects` out of the sets of subjects those devices served, on each shard, for every day whose keys may
    /// still live (``liveDays(around:)``): the devices a subject used in a day name the sets that name it.
    private func eraseDays(own: (KeySpace) -> Set<String>, counted: [String], subjects: [String], tenant: TenantID) async throws -> Int {
        let days = Self.liveDays(around: Date())
        let subjectDays = subjects.flatMap { subject in days.map { (subject: subject, day: $0) } }
        var removed = 0
        for keys in shards.all {
            let deviceSets = subjectDays.map { keys.devices(tenant, $0.subject, $0.day) }
            let devices = try await redis.pipeline(deviceSets.map { ["SMEMBERS", $0] })
            var commands: [[String]] = []
            for (used, reply) in zip(subjectDays, devices) {
                for device in reply.array?.compactMap(\.string) ?? [] {
                    commands.append(["SREM", keys.subjects(tenant, device: device, used.day), used.subject])
                }
            }
            let counters = counted.flatMap { subject in days.map { keys.quota(tenant, subject, $0) } }
            commands.append(["DEL"] + own(keys).sorted() + deviceSets + counters)
            removed += try await redis.pipeline(commands).reduce(0) { $0 + Int($1.int ?? 0) }
        }
        return removed
    }

    /// The labels of the quota days whose keys may still live, in any time zone: a day's keys expire at most three
    /// days after it ends (``OwnedIndex/dayKeyLifetime``), and a day's label is its date in the tenant's zone, at
    /// most a day from UTC's; the UTC dates from a week before `now` to the day after it cover them all.
    static func liveDays(around now: Date) -> [String] {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(secondsFromGMT: 0) ?? calendar.timeZone
        return (-7...1).map { offset in
            let date = calendar.dateComponents([.year, .month, .day], from: now.addingTimeInterval(Double(offset) * 86_400))
            return String(format: "%04d%02d%02d", date.year ?? 0, date.month ?? 0, date.day ?? 0)
        }
    }

    /// Deletes a shard's abuse log's entries about the subject (the log is capped, so reading it whole is bounded).
    private func eraseAbuseLogEntries(_ keys: KeySpace, of subject: String, tenant: TenantID) async throws -> Int {
        let entries = try await redis.send(["XRANGE", keys.abuseLog, "-", "+"]).streamEntries
        let ids = entries.filter { $0.fields["tenant"] == tenant.rawValue && $0.fields["subject"] == subject }.map(\.id)
        guard !ids.isEmpty else { return 0 }
        return Int(try await redis.send(["XDEL", keys.abuseLog] + ids).int ?? 0)
    }
}
