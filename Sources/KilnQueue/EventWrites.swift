import KilnCore
import Locking
import RedisClient

/// The events running attempts append, on their way to Redis: one script call at a time per shard, and the events
/// that arrive while it is out go together in the next.
///
/// A streaming job appends an event for every delta, and with many streaming at once each event in a call of its own
/// cost Redis the call's fixed part again and again (a script's setup, its reply, often a read and a write of its
/// own). At low load an event finds no call out and goes at once; under load a call carries what queued behind the
/// one before. The caller whose event finds no call out sends it, with any waiting; when its call returns, the oldest
/// waiting caller sends the next. A job's own events stay in order: its writer appends one at a time, so no more
/// events wait than attempts run, however far behind Redis falls.
final class EventWrites: Sendable {
    /// One event for a running attempt's stream.
    struct Event: Sendable {
        let job: JobID
        let attempt: Int
        let type: String
        /// JSON text.
        let data: String
        /// The job's progress to keep on its hash, if the event reports one.
        let progress: String?
    }

    /// What a waiting caller is woken with: its event's outcome, or its turn to send.
    private enum Turn {
        case appended(Bool)
        case send
    }

    private struct Waiting {
        let event: Event
        let continuation: CheckedContinuation<Turn, any Error>
    }

    /// One shard's calls: whether one is out, and the events waiting for the next.
    private struct Lane {
        var sending = false
        var waiting: [Waiting] = []
    }

    /// The most events one call carries: a script holds Redis for its whole run.
    static let mostPerCall = 100

    private let redis: RedisPool
    private let script: RedisScript
    private let shards: QueueShards
    private let configuration: QueueConfiguration
    private let lanes: [Locked<Lane>]

    init(redis: RedisPool, script: RedisScript, shards: QueueShards, configuration: QueueConfiguration) {
        self.redis = redis
        self.script = script
        self.shards = shards
        self.configuration = configuration
        lanes = shards.all.map { _ in Locked(Lane()) }
    }

    /// Appends `event` to its job's stream; false when the attempt lost its lease (or its job's shard is not this
    /// namespace's).
    func append(_ event: Event) async throws -> Bool {
        guard shards.keys(of: event.job) != nil else { return false }
        let lane = lanes[event.job.shard]
        let sendsAtOnce = lane.withLock { lane in
            guard !lane.sending else { return false }
            lane.sending = true
            return true
        }
        if !sendsAtOnce {
            let turn = try await withCheckedThrowingContinuation { continuation in
                let sendsNow = lane.withLock { lane in
                    guard lane.sending else {
                        lane.sending = true
                        return true
                    }
                    lane.waiting.append(Waiting(event: event, continuation: continuation))
                    return false
                }
                if sendsNow { continuation.resume(returning: .send) }
            }
            if case .appended(let appended) = turn { return appended }
        }
        return try await send(event, on: lane)
    }

    /// Sends `event` and those waiting (up to ``mostPerCall``) in one call, answers the waiting ones, and hands the
    /// lane to the oldest caller still waiting.
    private func send(_ event: Event, on lane: Locked<Lane>) async throws -> Bool {
        let riders = lane.withLock { lane in
            let taken = Array(lane.waiting.prefix(Self.mostPerCall - 1))
            lane.waiting.removeFirst(taken.count)
            return taken
        }
        let events = [event] + riders.map(\.event)
        let outcome: Result<[Bool], any Error>
        do {
            let keys = shards.all[event.job.shard]
            let call = EventCall(keySpace: keys, items: events, configuration: configuration)
            outcome = .success(try EventCall.appended(try await redis.evaluate(call.call(script)), count: events.count))
        } catch {
            outcome = .failure(error)
        }
        for (index, rider) in riders.enumerated() {
            rider.continuation.resume(with: outcome.map { .appended($0[index + 1]) })
        }
        let next = lane.withLock { lane in
            guard !lane.waiting.isEmpty else {
                lane.sending = false
                return nil as Waiting?
            }
            return lane.waiting.removeFirst()
        }
        next?.continuation.resume(returning: .send)
        return try outcome.get()[0]
    }
}
