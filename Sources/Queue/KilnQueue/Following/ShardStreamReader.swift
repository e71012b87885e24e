import KilnCore
import Locking
import RedisClient
import ServiceFailures

/// Reads every stream this node's clients follow on one shard, on one blocking Redis connection, and hands each entry
/// to every follower of its stream.
///
/// One `XREAD BLOCK` names all the shard's followed streams (all in the shard's cluster slot) and, first, the node's
/// wake-up stream: a follower that joins while the read waits adds an entry there, so the read returns and the next one
/// names the new stream too. A read costs Redis in proportion to the streams it names, so when a round brought entries
/// and names many streams, the reader rests ``restPerStream`` per stream before the next: entries arriving together are
/// read together, and one node's reads leave Redis to the rest of its work (docs/operations.md, "Sizing a node for
/// followers"). It runs while any follower follows, and tries again after Redis errors, so followers lose nothing while
/// Redis is away.
final class ShardStreamReader: Sendable {
    private struct Followed {
        /// The last entry read.
        var cursor: StreamID
        var followers: [ObjectIdentifier: StreamFollower]
    }

    private struct State {
        var streams: [String: Followed] = [:]
        /// The read loop runs.
        var reading = false
        /// A read is out, or about to be: a joining stream must wake it.
        var waiting = false
        /// A wake-up was sent for the read that is out.
        var woken = false
        var wakeCursor = StreamID.start
        var swept = ContinuousClock.now
    }

    let redis: RedisPool
    /// The node's wake-up stream on this shard.
    private let wakeKey: String
    private let state = Locked(State())

    /// How long one read waits for entries: followers whose wait ran out are woken after each read.
    static let readBlock: Duration = .seconds(1)
    /// The rest between two rounds that brought entries, per stream the reads name, past ``restFrom`` streams.
    static let restPerStream: Duration = .microseconds(2)
    static let restFrom = 500
    /// The most entries of one stream a read brings.
    static let readCount = 200

    init(redis: RedisPool, wakeKey: String) {
        self.redis = redis
        self.wakeKey = wakeKey
    }

    /// Takes a follower in, with what it has had.
    /// - Returns: whether the reader had read no further: false when the follower must read once more from Redis.
    func join(_ follower: StreamFollower, had: StreamID) -> Bool {
        let (live, start, wake) = state.withLock { state -> (Bool, Bool, Bool) in
            if var followed = state.streams[follower.key] {
                let live = followed.cursor <= had
                followed.followers[ObjectIdentifier(follower)] = follower
                state.streams[follower.key] = followed
                follower.joined(live: live)
                return (live, false, false)
            }
            state.streams[follower.key] = Followed(cursor: had, followers: [ObjectIdentifier(follower): follower])
            follower.joined(live: true)
            let start = !state.reading
            state.reading = true
            let wake = !start && state.waiting && !state.woken
            if wake { state.woken = true }
            return (true, start, wake)
        }
        if start { Task { await self.run() } }
        if wake {
            Task { [redis, wakeKey] in
                _ = try? await redis.pipeline([["XADD", wakeKey, "MAXLEN", "1", "*", "w", "1"], ["PEXPIRE", wakeKey, "3600000"]])
            }
        }
        return live
    }

    /// Forgets a follower; a stream with none left is no longer read.
    func leave(_ follower: StreamFollower) {
        state.withLock { state in
            guard var followed = state.streams[follower.key] else { return }
            followed.followers[ObjectIdentifier(follower)] = nil
            state.streams[follower.key] = followed.followers.isEmpty ? nil : followed
        }
    }

    /// How many streams, and how many followers of them, the reader serves now.
    var counts: (streams: Int, followers: Int) {
        state.withLock { state in (state.streams.count, state.streams.values.reduce(0) { $0 + $1.followers.count }) }
    }

    private func run() async {
        var failures = 0
        while let round = nextRound() {
            var brought = false
            do {
                let reply = try await redis.sendBlocking(
                    ["XREAD", "COUNT", String(Self.readCount), "BLOCK", String(Self.readBlock.milliseconds), "STREAMS", wakeKey] + round.keys
                        + [round.wakeCursor.description] + round.cursors.map(\.description),
                    blockFor: Self.readBlock)
                failures = 0
                brought = deliver(reply)
            } catch {
                state.withLock { $0.waiting = false }
                failures += 1
                try? await Task.sleep(for: ReconnectBackoff(maximum: .seconds(2)).delay(afterFailures: failures))
            }
            sweep()
            if brought, round.keys.count > Self.restFrom { try? await Task.sleep(for: Self.restPerStream * round.keys.count) }
        }
    }

    private struct Round {
        let keys: [String]
        let cursors: [StreamID]
        let wakeCursor: StreamID
    }

    /// The streams to read next, or nil when none is followed any more (the loop then ends).
    private func nextRound() -> Round? {
        state.withLock { state in
            guard !state.streams.isEmpty else {
                state.reading = false
                return nil
            }
            state.waiting = true
            state.woken = false
            return Round(keys: Array(state.streams.keys), cursors: state.streams.values.map(\.cursor), wakeCursor: state.wakeCursor)
        }
    }

    /// Hands a read's entries to their followers. - Returns: whether it brought any.
    private func deliver(_ reply: RedisValue) -> Bool {
        var wakes: [StreamFollower.Wake] = []
        let brought = state.withLock { state -> Bool in
            state.waiting = false
            var brought = false
            for stream in reply.array ?? [] {
                guard let parts = stream.array, parts.count == 2, let key = parts[0].string else { continue }
                let entries = StreamEntry.entries(of: parts[1])
                guard let last = entries.last?.id else { continue }
                if key == wakeKey {
                    state.wakeCursor = last
                    continue
                }
                guard var followed = state.streams[key] else { continue }
                brought = true
                followed.cursor = max(followed.cursor, last)
                for (id, follower) in followed.followers {
                    let received = follower.receive(entries)
                    if let wake = received.wake { wakes.append(wake) }
                    if received.fellBehind { followed.followers[id] = nil }
                }
                state.streams[key] = followed.followers.isEmpty ? nil : followed
            }
            return brought
        }
        for wake in wakes { wake.resume() }
        return brought
    }

    /// Wakes, with nothing, the followers whose wait ran out; at most once a second.
    private func sweep() {
        let now = ContinuousClock.now
        let followers = state.withLock { state -> [StreamFollower] in
            guard now - state.swept >= .seconds(1) else { return [] }
            state.swept = now
            return state.streams.values.flatMap(\.followers.values)
        }
        for follower in followers { follower.expire(at: now)?.resume() }
    }
}
