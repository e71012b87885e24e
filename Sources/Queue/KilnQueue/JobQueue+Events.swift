public import KilnCore
import KilnKeys
import RedisClient

extension JobQueue {
    /// Events after `lastEventID` (from the start when nil), oldest first.
    public func events(of id: JobID, after lastEventID: String?, limit: Int = 500) async throws -> [JobEvent] {
        guard let keys = shards.keys(of: id) else { return [] }
        let start = lastEventID.map { "(" + $0 } ?? "-"
        let reply = try await redis.send(["XRANGE", keys.events(id), start, "+", "COUNT", String(limit)])
        return StreamEntry.entries(of: reply).map(JobEvent.init)
    }

    /// Follows the job's events after `after` for as long as `body` runs, through the node's reader of the job's shard:
    /// the follower costs memory, not a Redis connection.
    public func followEvents<Result>(
        of id: JobID, after: StreamID, _ body: (any JobEventFollower) async throws -> Result
    ) async throws -> Result {
        guard let key = shards.keys(of: id)?.events(id) else { return try await body(NoEvents()) }
        return try await namespace.followers.follow(key, shard: id.shard, after: after) { follower in
            try await body(StreamedJobEvents(follower: follower))
        }
    }

    /// The id of the job's last event; nil when its stream is gone (it finished long ago) or the job is not here.
    public func lastEventID(of id: JobID) async throws -> StreamID? {
        guard let key = shards.keys(of: id)?.events(id) else { return nil }
        return StreamEntry.entries(of: try await redis.send(["XREVRANGE", key, "+", "-", "COUNT", "1"])).first?.id
    }
}

/// A job's events as they come, for as long as the caller follows them.
public protocol JobEventFollower: Sendable {
    /// The next events, oldest first: at once when some wait, else the first to come within `timeout`, else none.
    /// - Throws: ``StreamFollowerError/fellBehind`` when the caller fell too far behind the job's stream (it resumes
    ///   after the last event it had).
    func next(timeout: Duration) async throws -> [JobEvent]
}

private struct StreamedJobEvents: JobEventFollower {
    let follower: StreamFollower

    func next(timeout: Duration) async throws -> [JobEvent] {
        try await follower.next(timeout: timeout).map(JobEvent.init)
    }
}

/// The events of a job whose id names a shard this namespace does not have: none, ever.
private struct NoEvents: JobEventFollower {
    func next(timeout: Duration) async throws -> [JobEvent] {
        try await Task.sleep(for: timeout)
        return []
    }
}
