import Locking
import RedisClient

/// One consumer's place on a followed Redis stream: what it has had, and the entries waiting for it.
///
/// It first catches up on its own, a page of `XRANGE` at a time, while no reader knows of it; once a page comes back
/// short it joins its shard's ``ShardStreamReader``, which from then on hands it every entry it reads of the stream,
/// the same read serving every follower of that stream. A follower that joins a stream the reader had already read
/// past its place reads once more after joining, and what the reader handed it meanwhile is kept until then.
///
/// What waits for the consumer is bounded: a consumer that falls more than ``queueLimit`` entries behind the reader (a
/// client that stopped reading its socket) is dropped with ``StreamFollowerError/fellBehind``, and resumes after the
/// last entry it had, from Redis. A follower's entries are the reader's, shared, not copies.
public final class StreamFollower: Sendable {
    private enum Phase {
        /// Reading the stream from Redis, unknown to the reader.
        case catchingUp
        /// Known to the reader, reading once more what the reader had read before it joined; `early` holds what the
        /// reader handed it meanwhile.
        case joining(early: [StreamEntry])
        /// Handed every entry the reader reads.
        case live
    }

    private struct State {
        var phase = Phase.catchingUp
        /// The last entry the consumer has been given or has waiting.
        var had: StreamID
        var queued: [StreamEntry] = []
        var waiter: CheckedContinuation<[StreamEntry], any Error>?
        var deadline: ContinuousClock.Instant?
        var fellBehind = false
        var cancelled = false
    }

    /// The stream's key.
    let key: String
    /// The most entries that wait for the consumer before it is dropped.
    let queueLimit: Int
    private let reader: ShardStreamReader
    private let state: Locked<State>

    /// The most entries one page of catching up reads.
    static let pageSize = 500

    init(key: String, after: StreamID, queueLimit: Int, reader: ShardStreamReader) {
        self.key = key
        self.queueLimit = queueLimit
        self.reader = reader
        self.state = Locked(State(had: after))
    }

    /// The stream's next entries, oldest first: at once when some wait, else the first to come within `timeout`, else
    /// none.
    /// - Throws: ``StreamFollowerError/fellBehind`` once the consumer fell too far behind, `CancellationError` when the
    ///   calling task is cancelled, and Redis's errors while catching up.
    public func next(timeout: Duration) async throws -> [StreamEntry] {
        let phase = state.withLock { $0.phase }
        if case .catchingUp = phase {
            let page = try await catchUp()
            if !page.isEmpty { return page }
        }
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                let now = state.withLock { state -> Result<[StreamEntry], any Error>? in
                    if state.cancelled { return .failure(CancellationError()) }
                    if state.fellBehind { return .failure(StreamFollowerError.fellBehind) }
                    if !state.queued.isEmpty {
                        defer { state.queued = [] }
                        return .success(state.queued)
                    }
                    state.waiter = continuation
                    state.deadline = .now + timeout
                    return nil
                }
                if let now { continuation.resume(with: now) }
            }
        } onCancel: {
            let waiter = state.withLock { state in
                state.cancelled = true
                defer { state.waiter = nil }
                return state.waiter
            }
            waiter?.resume(throwing: CancellationError())
        }
    }

    /// Stops following: the reader forgets the follower. A consumer calls it when it is done, whatever the reason.
    func stop() {
        reader.leave(self)
    }

    /// Reads the next page from Redis; on a short one, joins the reader (and reads once more if the reader had read
    /// past this page).
    private func catchUp() async throws -> [StreamEntry] {
        let after = state.withLock { $0.had }
        let page = try await read(after: after)
        let had = page.last?.id ?? after
        state.withLock { $0.had = had }
        guard page.count < Self.pageSize else { return page }
        guard !reader.join(self, had: had) else { return page }
        // The reader had read past `had`: what it read before this follower joined is read again here.
        var missed: [StreamEntry] = []
        var cursor = had
        while true {
            let more = try await read(after: cursor)
            missed += more
            guard more.count == Self.pageSize, let last = more.last else { break }
            cursor = last.id
        }
        return page
            + state.withLock { state -> [StreamEntry] in
                guard case .joining(let early) = state.phase else { return [] }
                let caught = missed + early.filter { $0.id > (missed.last?.id ?? had) }
                state.phase = .live
                state.had = caught.last?.id ?? had
                return caught
            }
    }

    private func read(after: StreamID) async throws -> [StreamEntry] {
        let reply = try await reader.redis.send(["XRANGE", key, "(\(after)", "+", "COUNT", String(Self.pageSize)])
        return StreamEntry.entries(of: reply)
    }

    // MARK: The reader's side

    /// Called by the reader as it takes the follower in: `live` when it had read no further than the follower.
    func joined(live: Bool) {
        state.withLock { $0.phase = live ? .live : .joining(early: []) }
    }

    /// Takes entries the reader read; returns the consumer to wake, with what it gets, or whether the follower fell
    /// behind (and must be left).
    func receive(_ entries: [StreamEntry]) -> (wake: Wake?, fellBehind: Bool) {
        state.withLock { state in
            switch state.phase {
            case .catchingUp:
                return (nil, false)
            case .joining(let early):
                guard early.count + entries.count <= queueLimit else { return Self.fallBehind(&state) }
                state.phase = .joining(early: early + entries)
                return (nil, false)
            case .live:
                let new = entries.filter { $0.id > state.had }
                guard let last = new.last else { return (nil, false) }
                guard state.queued.count + new.count <= queueLimit else { return Self.fallBehind(&state) }
                state.had = last.id
                guard let waiter = state.waiter else {
                    state.queued += new
                    return (nil, false)
                }
                state.waiter = nil
                let given = state.queued + new
                state.queued = []
                return (Wake(waiter: waiter, outcome: .success(given)), false)
            }
        }
    }

    /// Wakes a consumer that has waited past its deadline, with nothing.
    func expire(at now: ContinuousClock.Instant) -> Wake? {
        state.withLock { state in
            guard let waiter = state.waiter, let deadline = state.deadline, deadline <= now else { return nil }
            state.waiter = nil
            return Wake(waiter: waiter, outcome: .success([]))
        }
    }

    private static func fallBehind(_ state: inout State) -> (wake: Wake?, fellBehind: Bool) {
        state.fellBehind = true
        state.queued = []
        state.phase = .live
        defer { state.waiter = nil }
        return (state.waiter.map { Wake(waiter: $0, outcome: .failure(StreamFollowerError.fellBehind)) }, true)
    }

    /// A consumer to resume, once the lock is let go.
    struct Wake {
        let waiter: CheckedContinuation<[StreamEntry], any Error>
        let outcome: Result<[StreamEntry], any Error>

        func resume() { waiter.resume(with: outcome) }
    }
}

/// Why a follower ended before its consumer stopped it.
public enum StreamFollowerError: Error, Sendable {
    /// The consumer fell too far behind the stream; it resumes after the last entry it had.
    case fellBehind
}
