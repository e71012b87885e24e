public import KilnCore
import KilnKeys
import RedisClient

extension JobQueue {
    /// Depth by tenant, class and priority with the oldest wait, and the sizes of the in-flight, delayed, dead and
    /// unrecorded sets.
    public func stats() async throws -> QueueStats {
        let tenants = try await redis.send(["HKEYS", keys.weights]).array?.compactMap(\.string).sorted() ?? []
        var lanes: [(String, JobClass, Priority)] = []
        for tenant in tenants {
            for jobClass in JobClass.allCases {
                for priority in Priority.allCases { lanes.append((tenant, jobClass, priority)) }
            }
        }
        let replies = try await redis.pipeline(
            [["TIME"], ["ZCARD", keys.inflight], ["ZCARD", keys.delayed], ["ZCARD", keys.dead], ["ZCARD", keys.unrecorded]]
                + lanes.flatMap { lane in
                    let key = keys.ready(lane.1, lane.0, lane.2)
                    return [["LLEN", key], ["LINDEX", key, "0"]]
                })
        let now = (replies[0].array?.first?.int ?? 0) * 1000
        let heads = lanes.indices.compactMap { replies[6 + 2 * $0].string.flatMap(JobID.init(validating:)) }
        let created = Dictionary(
            try await snapshots(heads).compactMap { $0.map { ($0.id.rawValue, $0.createdAtMilliseconds) } },
            uniquingKeysWith: { first, _ in first })
        let ready = lanes.enumerated().compactMap { index, lane -> QueueStats.Depth? in
            let count = Int(replies[5 + 2 * index].int ?? 0)
            guard count > 0 else { return nil }
            let wait = replies[6 + 2 * index].string.flatMap { created[$0] }.map { now - $0 }
            return QueueStats.Depth(tenant: lane.0, jobClass: lane.1, priority: lane.2, count: count, oldestWaitMilliseconds: wait)
        }
        return QueueStats(
            ready: ready, inFlight: Int(replies[1].int ?? 0), delayed: Int(replies[2].int ?? 0), dead: Int(replies[3].int ?? 0),
            unrecorded: Int(replies[4].int ?? 0))
    }

    /// Dead-lettered jobs, most recent first.
    public func deadLetters(limit: Int = 100) async throws -> [JobSnapshot] {
        let ids = try await redis.send(["ZRANGE", keys.dead, "+inf", "-inf", "BYSCORE", "REV", "LIMIT", "0", String(limit)])
        return try await snapshots((ids.array ?? []).compactMap { $0.string.flatMap(JobID.init(validating:)) }).compactMap { $0 }
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
}

extension JobQueue {
    /// Deletes every key of this namespace (tests and benchmarks clean up with it). - Returns: how many.
    @discardableResult
    public func deleteNamespace() async throws -> Int {
        let pattern = keys.everyKey
        return try await redis.withConnection { connection in
            var cursor = "0"
            var deleted = 0
            repeat {
                let reply = try connection.send(["SCAN", cursor, "MATCH", pattern, "COUNT", "1000"]).array ?? []
                cursor = reply.first?.string ?? "0"
                let found = (reply.count > 1 ? reply[1].array ?? [] : []).compactMap(\.string)
                if !found.isEmpty { deleted += Int(try connection.send(["UNLINK"] + found).int ?? 0) }
            } while cursor != "0"
            return deleted
        }
    }
}
