import Foundation
import KilnKeys
import RedisClient

/// The node's followers of Redis streams (jobs' events, MCP answers), read through one ``ShardStreamReader`` per shard:
/// a follower costs the node memory, not a Redis connection, and followers of one stream share its reads.
public final class StreamFollowers: Sendable {
    private let readers: [ShardStreamReader]
    private let queueLimit: Int

    init(redis: RedisPool, shards: QueueShards, queueLimit: Int) {
        let node = UUID().uuidString.lowercased()
        readers = shards.all.map { ShardStreamReader(redis: redis, wakeKey: $0.followersWake(node: node)) }
        self.queueLimit = queueLimit
    }

    /// Follows the stream `key` of shard `shard` from after `after`, for as long as `body` runs.
    func follow<Result>(
        _ key: String, shard: Int, after: StreamID, _ body: (StreamFollower) async throws -> Result
    ) async throws -> Result {
        let follower = StreamFollower(key: key, after: after, queueLimit: queueLimit, reader: readers[shard])
        defer { follower.stop() }
        return try await body(follower)
    }

    /// How many streams the node reads for its followers, and how many followers it serves, over every shard.
    public var counts: (streams: Int, followers: Int) {
        readers.reduce((0, 0)) { total, reader in
            let counts = reader.counts
            return (total.0 + counts.streams, total.1 + counts.followers)
        }
    }
}
