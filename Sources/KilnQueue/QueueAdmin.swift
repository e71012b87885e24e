public import Foundation
public import KilnCore
import KilnKeys
import RedisClient

/// What operators read and do in a namespace: queue statistics, paused tenants and classes, and the dead letters.
public struct QueueAdmin: NamespaceRole {
    let namespace: RedisNamespace

    public init(_ namespace: RedisNamespace) {
        self.namespace = namespace
    }

    /// Whether Redis answers.
    public func ping() async throws {
        try await redis.send(["PING"])
    }

    /// Depth by tenant, class and priority with the oldest wait, the sizes of the in-flight, delayed, dead and
    /// unrecorded sets, and the tenants and classes paused.
    public func stats() async throws -> QueueStats {
        let tenants = try await redis.send(["HKEYS", keys.weights]).array?.compactMap(\.string).sorted() ?? []
        var lanes: [(String, JobClass, Priority)] = []
        for tenant in tenants {
            for jobClass in JobClass.allCases {
                for priority in Priority.allCases { lanes.append((tenant, jobClass, priority)) }
            }
        }
        let replies = try await redis.pipeline(
            [
                ["TIME"], ["ZCARD", keys.inflight], ["ZCARD", keys.delayed], ["ZCARD", keys.dead], ["ZCARD", keys.unrecorded],
                ["SMEMBERS", keys.paused],
            ]
                + lanes.flatMap { lane in
                    let key = keys.ready(lane.1, lane.0, lane.2)
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
            return QueueStats.Depth(tenant: lane.0, jobClass: lane.1, priority: lane.2, count: count, oldestWaitMilliseconds: wait)
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
        async let held = HeldCall.counts(of: try await redis.evaluate(HeldCall(keySpace: keys).call(scripts.held)))
        async let delayed = self.split(keys.delayed, latestFirst: false, limit: splitLimit)
        async let dead = self.split(keys.dead, latestFirst: true, limit: splitLimit)
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

    /// The first `limit` jobs of a sorted set of job ids (the latest first, when asked), counted by class and tenant.
    private func split(_ set: String, latestFirst: Bool, limit: Int) async throws -> (counts: [OverviewLane: Int], counted: Int) {
        guard limit > 0 else { return ([:], 0) }
        let ids = (try await redis.send(["ZRANGE", set, "0", String(limit - 1)] + (latestFirst ? ["REV"] : [])).array ?? [])
            .compactMap { $0.string.flatMap(JobID.init(validating:)) }
        guard !ids.isEmpty else { return ([:], 0) }
        var counts: [OverviewLane: Int] = [:]
        for reply in try await redis.pipeline(ids.map { ["HMGET", keys.job($0), "class", "tenant"] }) {
            guard let fields = reply.array, fields.count == 2, let jobClass = fields[0].string.flatMap(JobClass.init(rawValue:)),
                let tenant = fields[1].string
            else { continue }
            counts[OverviewLane(jobClass: jobClass, tenant: tenant), default: 0] += 1
        }
        return (counts, ids.count)
    }

    /// How many jobs are dead-lettered.
    public func deadCount() async throws -> Int {
        Int(try await redis.send(["ZCARD", keys.dead]).int ?? 0)
    }

    /// Pauses a tenant or a class: claims skip its jobs until it is resumed, and submissions are still admitted and
    /// wait. - Returns: false when it was already paused.
    @discardableResult
    public func pause(_ lane: QueueLane) async throws -> Bool {
        try await redis.send(["SADD", keys.paused, lane.member]).int == 1
    }

    /// Resumes a paused tenant or class and wakes the workers that claim it. - Returns: false when it was not paused.
    @discardableResult
    public func resume(_ lane: QueueLane) async throws -> Bool {
        let call = ResumeCall(keySpace: keys, lane: lane)
        return try ResumeCall.read(try await redis.evaluate(call.call(scripts.resume))).int("resumed") == 1
    }

    /// The tenants and classes paused now.
    public func paused() async throws -> Set<QueueLane> {
        Self.lanes(try await redis.send(["SMEMBERS", keys.paused]))
    }

    /// The lanes of a reply of `SMEMBERS paused`.
    private static func lanes(_ members: RedisValue) -> Set<QueueLane> {
        Set((members.array ?? []).compactMap { $0.string.flatMap(QueueLane.init(member:)) })
    }

    /// Dead-lettered jobs, most recent first.
    public func deadLetters(limit: Int = 100) async throws -> [JobSnapshot] {
        let ids = try await redis.send(["ZRANGE", keys.dead, "+inf", "-inf", "BYSCORE", "REV", "LIMIT", "0", String(limit)])
        let found = (ids.array ?? []).compactMap { $0.string.flatMap(JobID.init(validating:)) }
        return try await namespace.queue.snapshots(found).compactMap { $0 }
    }

    /// Sends a dead-lettered job back to its queue with fresh attempts; false when it is not dead-lettered.
    public func replay(_ id: JobID) async throws -> Bool {
        let call = ReplayCall(keySpace: keys, id: id, configuration: configuration)
        return try ReplayCall.read(try await redis.evaluate(call.call(scripts.replay))).int("replayed") == 1
    }

    /// Deletes one dead-lettered job, or all of them when `id` is nil. - Returns: how many.
    public func purgeDead(_ id: JobID? = nil) async throws -> Int {
        Int(try PurgeCall.read(try await redis.evaluate(PurgeCall(keySpace: keys, only: id).call(scripts.purge))).int("purged"))
    }

    /// Deletes the Redis copies, with their events, of recorded jobs that succeeded or were cancelled, for the
    /// retention purge once it has emptied their records: until the copy expired, reading the job would answer with
    /// what PostgreSQL no longer keeps. Failed and dead jobs are left for replay. - Returns: how many copies went.
    @discardableResult
    public func forgetRecorded(_ ids: [JobID]) async throws -> Int {
        var forgotten = 0
        for start in stride(from: 0, to: ids.count, by: 100) {
            let call = ForgetCall(keySpace: keys, items: Array(ids[start..<min(start + 100, ids.count)]))
            forgotten += Int(try ForgetCall.read(try await redis.evaluate(call.call(scripts.forget))).int("forgotten"))
        }
        return forgotten
    }

    /// Dead-lettered jobs that ended before `cutoff`, oldest first, from `offset` on. Their hashes keep inputs in
    /// Redis until replayed or purged, so the retention purge reads them here.
    public func deadLetters(endedBefore cutoff: Date, offset: Int, limit: Int) async throws -> [JobSnapshot] {
        let score = String(Int64((cutoff.timeIntervalSince1970 * 1000).rounded(.down)))
        let ids = try await redis.send(["ZRANGE", keys.dead, "-inf", "(" + score, "BYSCORE", "LIMIT", String(offset), String(limit)])
        let found = (ids.array ?? []).compactMap { $0.string.flatMap(JobID.init(validating:)) }
        return try await namespace.queue.snapshots(found).compactMap { $0 }
    }
}

/// One class of one tenant, as the overview counts it.
private struct OverviewLane: Hashable {
    let jobClass: JobClass
    let tenant: String
}
