public import Foundation
public import KilnCore
import KilnKeys
import RedisClient

/// What operators read and do in a namespace, across its shards: queue statistics, paused tenants and classes, and the dead letters.
public struct QueueAdmin: NamespaceRole {
    let namespace: RedisNamespace

    public init(_ namespace: RedisNamespace) {
        self.namespace = namespace
    }

    /// Whether Redis answers, on every shard (one pipeline; over a cluster, every shard's master at once).
    public func ping() async throws {
        for reply in try await redis.pipeline(shards.all.map { ["EXISTS", $0.dead] }) { _ = try reply.checked() }
    }

    /// Depth by tenant, class and priority with the oldest wait, the sizes of the in-flight, delayed, dead and
    /// unrecorded sets, and the tenants and classes paused: every shard's, added up.
    public func stats() async throws -> QueueStats {
        var depths: [Lane: (count: Int, wait: Int64?)] = [:]
        var inFlight = 0
        var delayed = 0
        var dead = 0
        var unrecorded = 0
        var paused: Set<QueueLane> = []
        for keys in shards.all {
            let shard = try await stats(on: keys)
            for depth in shard.ready {
                let lane = Lane(tenant: depth.tenant, jobClass: depth.jobClass, priority: depth.priority)
                let known = depths[lane]
                let waits = [known?.wait, depth.oldestWaitMilliseconds].compactMap { $0 }
                depths[lane] = ((known?.count ?? 0) + depth.count, waits.max())
            }
            inFlight += shard.inFlight
            delayed += shard.delayed
            dead += shard.dead
            unrecorded += shard.unrecorded
            paused.formUnion(shard.paused)
        }
        let ready = depths.sorted {
            ($0.key.tenant, $0.key.jobClass.rawValue, $0.key.priority.rank) < ($1.key.tenant, $1.key.jobClass.rawValue, $1.key.priority.rank)
        }
        .map {
            QueueStats.Depth(
                tenant: $0.key.tenant, jobClass: $0.key.jobClass, priority: $0.key.priority, count: $0.value.count,
                oldestWaitMilliseconds: $0.value.wait)
        }
        return QueueStats(ready: ready, inFlight: inFlight, delayed: delayed, dead: dead, unrecorded: unrecorded, paused: paused)
    }

    /// One shard's statistics.
    private func stats(on keys: KeySpace) async throws -> QueueStats {
        let tenants = try await redis.send(["HKEYS", keys.weights]).array?.compactMap(\.string).sorted() ?? []
        var lanes: [Lane] = []
        for tenant in tenants {
            for jobClass in JobClass.allCases {
                for priority in Priority.allCases { lanes.append(Lane(tenant: tenant, jobClass: jobClass, priority: priority)) }
            }
        }
        let replies = try await redis.pipeline(
            [
                ["TIME"], ["ZCARD", keys.inflight], ["ZCARD", keys.delayed], ["ZCARD", keys.dead], ["ZCARD", keys.unrecorded],
                ["SMEMBERS", keys.paused],
            ]
                + lanes.flatMap { lane in
                    let key = keys.ready(lane.jobClass, lane.tenant, lane.priority)
                    return [["LLEN", key], ["LINDEX", key, "0"]]
                })
        let now = (replies[0].array?.first?.int ?? 0) * 1000
        let heads = lanes.indices.compactMap { replies[7 + 2 * $0].string.flatMap(JobID.init(validating:)) }
        let created = Dictionary(
            try await namespace.queue.snapshots(heads).compactMap { $0.map { ($0.id.rawValue, $0.createdAtMilliseconds) } },
            uniquingKeysWith: { first, _ in first })
        let ready = lanes.enumerated().compactMap { index, lane -> QueueStats.Depth? in
            let count = Int(replies[6 + 2 * index].int ?? 0)
            guard count > 0 else { return nil }
            let wait = replies[7 + 2 * index].string.flatMap { created[$0] }.map { now - $0 }
            return QueueStats.Depth(tenant: lane.tenant, jobClass: lane.jobClass, priority: lane.priority, count: count, oldestWaitMilliseconds: wait)
        }
        return QueueStats(
            ready: ready, inFlight: Int(replies[1].int ?? 0), delayed: Int(replies[2].int ?? 0), dead: Int(replies[3].int ?? 0),
            unrecorded: Int(replies[4].int ?? 0), paused: Self.lanes(replies[5]))
    }

    /// Ready, running, delayed and dead jobs per class and tenant, held jobs per tenant, and what is paused: for an
    /// overview refreshed every few seconds. Its reads go out together, in pipelines (no script runs long).
    ///
    /// Ready counts and the oldest wait are exact; running attempts are the workers' heartbeats' (a beat old at most).
    /// The delayed and dead sets are one sorted set each, across classes and tenants: a job's class and tenant are in
    /// its hash, so the split reads the hashes of at most `splitLimit` of each (the soonest due, the latest dead) and
    /// says how many it covers (``QueueOverview/Split``); the totals are exact.
    public func overview(splitLimit: Int = 1000) async throws -> QueueOverview {
        async let stats = self.stats()
        async let workers = namespace.fleet.workersAlive()
        async let held = self.heldByTenant()
        async let delayed = self.split(\.delayed, latestFirst: false, limit: splitLimit)
        async let dead = self.split(\.dead, latestFirst: true, limit: splitLimit)
        var lanes: [OverviewLane: QueueOverview.Counts] = [:]
        let totals = try await stats
        for depth in totals.ready {
            let lane = OverviewLane(jobClass: depth.jobClass, tenant: depth.tenant)
            var counts = QueueOverview.Counts()
            counts.ready = depth.count
            counts.oldestWaitMilliseconds = depth.oldestWaitMilliseconds
            lanes[lane, default: QueueOverview.Counts()].add(counts)
        }
        let alive = try await workers
        for worker in alive {
            for running in worker.lanes {
                lanes[OverviewLane(jobClass: running.jobClass, tenant: running.tenant), default: .init()].inFlight += running.running
            }
        }
        let (delayedCounts, delayedCounted) = try await delayed
        for (lane, count) in delayedCounts { lanes[lane, default: .init()].delayed += count }
        let (deadCounts, deadCounted) = try await dead
        for (lane, count) in deadCounts { lanes[lane, default: .init()].dead += count }
        return QueueOverview(
            lanes: lanes.sorted { ($0.key.jobClass.rawValue, $0.key.tenant) < ($1.key.jobClass.rawValue, $1.key.tenant) }.map {
                QueueOverview.Lane(jobClass: $0.key.jobClass, tenant: $0.key.tenant, counts: $0.value)
            },
            heldByTenant: try await held, paused: totals.paused, inFlight: totals.inFlight,
            delayedSplit: .init(total: max(totals.delayed, delayedCounted), counted: delayedCounted),
            deadSplit: .init(total: max(totals.dead, deadCounted), counted: deadCounted), unrecorded: totals.unrecorded, workers: alive)
    }

    /// The jobs that running caps hold back, by tenant, on every shard.
    private func heldByTenant() async throws -> [String: Int] {
        var held: [String: Int] = [:]
        for reply in try await redis.evaluate(shards.all.map { HeldCall(keySpace: $0).call(scripts.held) }) {
            held.merge(try HeldCall.counts(of: reply), uniquingKeysWith: +)
        }
        return held
    }

    /// The first `limit` jobs of each shard's sorted set of job ids (the latest first, when asked), counted by class
    /// and tenant.
    private func split(_ set: KeyPath<KeySpace, String>, latestFirst: Bool, limit: Int) async throws -> (counts: [OverviewLane: Int], counted: Int) {
        guard limit > 0 else { return ([:], 0) }
        var ids: [JobID] = []
        for keys in shards.all {
            ids += (try await redis.send(["ZRANGE", keys[keyPath: set], "0", String(limit - 1)] + (latestFirst ? ["REV"] : [])).array ?? [])
                .compactMap { $0.string.flatMap(JobID.init(validating:)) }
        }
        guard !ids.isEmpty else { return ([:], 0) }
        var counts: [OverviewLane: Int] = [:]
        for reply in try await redis.pipeline(ids.compactMap { id in shards.keys(of: id).map { ["HMGET", $0.job(id), "class", "tenant"] } }) {
            guard let fields = reply.array, fields.count == 2, let jobClass = fields[0].string.flatMap(JobClass.init(rawValue:)),
                let tenant = fields[1].string
            else { continue }
            counts[OverviewLane(jobClass: jobClass, tenant: tenant), default: 0] += 1
        }
        return (counts, ids.count)
    }

    /// How many jobs are dead-lettered.
    public func deadCount() async throws -> Int {
        try await redis.pipeline(shards.all.map { ["ZCARD", $0.dead] }).reduce(0) { $0 + Int($1.int ?? 0) }
    }

    /// Pauses a tenant or a class on every shard: claims skip its jobs until it is resumed, and submissions are still
    /// admitted and wait. - Returns: false when it was already paused.
    @discardableResult
    public func pause(_ lane: QueueLane) async throws -> Bool {
        try await redis.pipeline(shards.all.map { ["SADD", $0.paused, lane.member] }).contains { $0.int == 1 }
    }

    /// Resumes a paused tenant or class on every shard and wakes the workers that claim it. - Returns: false when it
    /// was not paused.
    @discardableResult
    public func resume(_ lane: QueueLane) async throws -> Bool {
        var resumed = false
        for reply in try await redis.evaluate(shards.all.map { ResumeCall(keySpace: $0, lane: lane).call(scripts.resume) }) {
            resumed = try ResumeCall.read(reply).int("resumed") == 1 || resumed
        }
        return resumed
    }

    /// The tenants and classes paused now (on any shard: a pause reaches them all).
    public func paused() async throws -> Set<QueueLane> {
        try await redis.pipeline(shards.all.map { ["SMEMBERS", $0.paused] }).reduce(into: []) { $0.formUnion(Self.lanes($1)) }
    }

    /// The lanes of a reply of `SMEMBERS paused`.
    private static func lanes(_ members: RedisValue) -> Set<QueueLane> {
        Set((members.array ?? []).compactMap { $0.string.flatMap(QueueLane.init(member:)) })
    }

    /// Dead-lettered jobs, most recent first, from every shard.
    public func deadLetters(limit: Int = 100) async throws -> [JobSnapshot] {
        let found = try await deadLetterIDs(from: "+inf", to: "-inf", latestFirst: true, first: limit)
        return try await namespace.queue.snapshots(found).compactMap { $0 }
    }

    /// The ids of the first `count` dead letters in score order between `from` and `to`, across the shards.
    private func deadLetterIDs(from: String, to: String, latestFirst: Bool, first count: Int) async throws -> [JobID] {
        guard count > 0 else { return [] }
        let replies = try await redis.pipeline(
            shards.all.map { ["ZRANGE", $0.dead, from, to, "BYSCORE"] + (latestFirst ? ["REV"] : []) + ["LIMIT", "0", String(count), "WITHSCORES"] })
        var scored: [(id: JobID, score: Double)] = []
        for reply in replies {
            let values = reply.array ?? []
            for index in stride(from: 0, to: values.count - 1, by: 2) {
                guard let id = values[index].string.flatMap(JobID.init(validating:)), let score = values[index + 1].string.flatMap(Double.init) else {
                    continue
                }
                scored.append((id, score))
            }
        }
        return scored.sorted { latestFirst ? $0.score > $1.score : $0.score < $1.score }.prefix(count).map(\.id)
    }

    /// Sends a dead-lettered job back to its queue with fresh attempts; false when it is not dead-lettered.
    public func replay(_ id: JobID) async throws -> Bool {
        guard let keys = shards.keys(of: id) else { return false }
        let call = ReplayCall(keySpace: keys, id: id, configuration: configuration)
        return try ReplayCall.read(try await redis.evaluate(call.call(scripts.replay))).int("replayed") == 1
    }

    /// Deletes one dead-lettered job, or all of them (on every shard) when `id` is nil. - Returns: how many.
    public func purgeDead(_ id: JobID? = nil) async throws -> Int {
        let spaces = id.map { id in shards.keys(of: id).map { [$0] } ?? [] } ?? shards.all
        var purged = 0
        for keys in spaces {
            purged += Int(try PurgeCall.read(try await redis.evaluate(PurgeCall(keySpace: keys, only: id).call(scripts.purge))).int("purged"))
        }
        return purged
    }

    /// Deletes the Redis copies, with their events, of recorded jobs that succeeded or were cancelled, for the
    /// retention purge once it has emptied their records: until the copy expired, reading the job would answer with
    /// what PostgreSQL no longer keeps. Failed and dead jobs are left for replay. - Returns: how many copies went.
    @discardableResult
    public func forgetRecorded(_ ids: [JobID]) async throws -> Int {
        var forgotten = 0
        for (keys, ids) in Dictionary(grouping: ids, by: { shards.keys(of: $0) }) {
            guard let keys else { continue }
            for start in stride(from: 0, to: ids.count, by: 100) {
                let call = ForgetCall(keySpace: keys, items: Array(ids[start..<min(start + 100, ids.count)]))
                forgotten += Int(try ForgetCall.read(try await redis.evaluate(call.call(scripts.forget))).int("forgotten"))
            }
        }
        return forgotten
    }

    /// Dead-lettered jobs that ended before `cutoff`, oldest first, from `offset` on. Their hashes keep inputs in
    /// Redis until replayed or purged, so the retention purge reads them here.
    public func deadLetters(endedBefore cutoff: Date, offset: Int, limit: Int) async throws -> [JobSnapshot] {
        let score = String(Int64((cutoff.timeIntervalSince1970 * 1000).rounded(.down)))
        let found = try await deadLetterIDs(from: "-inf", to: "(" + score, latestFirst: false, first: offset + limit).dropFirst(offset)
        return try await namespace.queue.snapshots(Array(found)).compactMap { $0 }
    }
}

/// One tenant's jobs of one class and priority, as the statistics count them.
private struct Lane: Hashable {
    let tenant: String
    let jobClass: JobClass
    let priority: Priority
}

/// One class of one tenant, as the overview counts it.
private struct OverviewLane: Hashable {
    let jobClass: JobClass
    let tenant: String
}
