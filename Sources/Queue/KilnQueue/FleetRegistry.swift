import Foundation
import KilnCore
import KilnKeys
import RedisClient

/// The workers alive and what they settled: each `kiln worker` beats every few seconds (``beat(_:ended:expiresAfter:)``),
/// and operators read the fleet back (``workersAlive()``, ``throughput(lastMinutes:)``).
///
/// A worker's heartbeat is a hash that expires after the beats it missed, so a dead worker vanishes on its own; the
/// attempts it settled are counted in its memory and added to per-minute counters with each beat, so counting costs
/// Redis nothing per job.
public struct FleetRegistry: NamespaceRole {
    let namespace: RedisNamespace

    /// How long a minute's counters stay: the longest series a reader can ask for is this long.
    public static let throughputRetention = Duration.seconds(2 * 3600)

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

    /// Attempts ended per minute over the last `minutes` minutes (at most 120), the current one last.
    public func throughput(lastMinutes minutes: Int) async throws -> Throughput {
        let count = max(1, min(minutes, Int(Self.throughputRetention.milliseconds / 60_000)))
        let seconds = try await redis.send(["TIME"]).array?.first?.int ?? 0
        let current = seconds / 60
        let starts = (0..<Int64(count)).map { current - Int64(count - 1) + $0 }
        let replies = try await redis.pipeline(starts.map { ["HGETALL", shards.control.throughput(minute: $0)] })
        let counters = replies.map { $0.fields.compactMapValues { Int($0) } }
        return Throughput(minutes: starts.map { $0 * 60_000 }, counters: counters)
    }
}

extension FleetRegistry: HeartbeatSink {}
