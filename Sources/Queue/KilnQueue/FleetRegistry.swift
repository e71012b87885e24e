import Foundation
import KilnCore
import KilnKeys
import RedisClient

/// The workers alive and what they settled: each `kiln worker` beats every few seconds (``beat(_:ended:expiresAfter:)``),
/// and operators read the fleet back (``workersAlive()``, ``throughput(last:_:)``).
///
/// A worker's heartbeat is a hash that expires after the beats it missed, so a dead worker vanishes on its own; the
/// attempts it settled are counted in its memory and added to counters per minute and per ten minutes with each beat, so counting costs
/// Redis nothing per job.
public struct FleetRegistry: NamespaceRole {
    let namespace: RedisNamespace

    public init(_ namespace: RedisNamespace) {
        self.namespace = namespace
    }

    /// Publishes `heartbeat` until `expiresAfter` passes without another beat, and adds `ended` to this minute's
    /// counters on the control shard. - Returns: when Redis took the beat, in milliseconds since 1970 (Redis's clock).
    @discardableResult
    public func beat(_ heartbeat: WorkerHeartbeat, ended: OutcomeTally, expiresAfter: Duration) async throws -> Int64 {
        let info = String(decoding: try JSONEncoder().encode(heartbeat), as: UTF8.self)
        let call = BeatCall(keySpace: shards.control, worker: heartbeat.id, info: info, expiresAfter: expiresAfter, items: ended.fields)
        return try BeatCall.read(try await redis.evaluate(call.call(scripts.beat))).int("beat_ms")
    }

    /// Removes a worker that stops gracefully, at once rather than after its missed beats.
    public func leave(_ worker: String) async throws {
        let keys = shards.control
        _ = try await redis.pipeline([["DEL", keys.worker(worker)], ["ZREM", keys.workers, worker]])
    }

    /// The workers whose heartbeat has not expired, the latest beat first.
    public func workersAlive() async throws -> [WorkerHeartbeat] {
        let keys = shards.control
        let ids = (try await redis.send(["ZRANGE", keys.workers, "0", "-1", "REV"]).array ?? []).compactMap(\.string)
        guard !ids.isEmpty else { return [] }
        let replies = try await redis.pipeline(ids.map { ["HMGET", keys.worker($0), "info", "beat"] })
        let decoder = JSONDecoder()
        return replies.compactMap { reply in
            guard let fields = reply.array, fields.count == 2, let info = fields[0].string, let beat = fields[1].int,
                var heartbeat = try? decoder.decode(WorkerHeartbeat.self, from: Data(info.utf8))
            else { return nil }
            heartbeat.lastBeatMilliseconds = beat
            return heartbeat
        }
    }

    /// Attempts ended per `bucket` over the last `count` of them (at most its retention), the current one last.
    public func throughput(last count: Int, _ bucket: Throughput.Bucket) async throws -> Throughput {
        let length = bucket.length.milliseconds
        let count = max(1, min(count, Int(bucket.retention.milliseconds / length)))
        let seconds = try await redis.send(["TIME"]).array?.first?.int ?? 0
        let current = seconds * 1000 / length
        let numbers = (0..<Int64(count)).map { current - Int64(count - 1) + $0 }
        let keys = shards.control
        let replies = try await redis.pipeline(
            numbers.map { ["HGETALL", bucket == .minute ? keys.throughput(minute: $0) : keys.throughputHistory(tenMinutes: $0)] })
        let counters = replies.map { $0.fields.compactMapValues { Int($0) } }
        return Throughput(bucket: bucket, starts: numbers.map { $0 * length }, counters: counters)
    }
}

extension FleetRegistry: HeartbeatSink {}
