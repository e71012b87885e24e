import KilnCore
import Locking
import RedisClient

/// The events running attempts append, on their way to Redis: one script call at a time per shard (a ``CallLane``
/// each), and the events that arrive while it is out go together in the next.
///
/// A streaming job appends an event for every delta, and with many streaming at once each event in a call of its own
/// cost Redis the call's fixed part again and again (a script's setup, its reply, often a read and a write of its
/// own). At low load an event finds no call out and goes at once; under load a call carries what queued behind the
/// one before. The next call goes out from the previous one's reply, on the Redis connection's event loop, after its
/// events' callers were answered: a caller that appends its next event from its answer rides that next call, and no
/// task is woken between the two. A job's own events stay in order: its writer appends one at a time, so no more
/// events wait than attempts run, however far behind Redis falls.
final class EventWrites: Sendable {
    /// One event for a running attempt's stream.
    struct Event: Sendable {
        let job: JobID
        let attempt: Int
        /// Numbers the attempt's events from 1, in the order it writes them: Redis appends each number once.
        let sequence: Int
        let type: String
        /// JSON text.
        let data: String
        /// The job's progress to keep on its hash, if the event reports one.
        let progress: String?
    }

    /// What a caller is answered with: whether its event was appended (false: its attempt lost its lease).
    typealias Completion = @Sendable (Result<Bool, any Error>) -> Void

    /// The most events one call carries: a script holds Redis for its whole run.
    static let mostPerCall = 100

    private let shards: QueueShards
    /// One lane of calls per shard.
    private let lanes: [CallLane<Event, Bool>]

    init(redis: RedisPool, script: RedisScript, shards: QueueShards, configuration: QueueConfiguration) {
        self.shards = shards
        lanes = shards.all.map { keys in
            CallLane(mostPerCall: Self.mostPerCall) { events, answered in
                let call = EventCall(keySpace: keys, items: events, configuration: configuration)
                redis.evaluate(call.call(script)) { reply in
                    answered(reply.flatMap { reply in Result { try EventCall.appended(reply) } })
                }
            }
        }
    }

    /// Appends `event` to its job's stream and calls `completion` with whether it was appended: false when the attempt
    /// lost its lease (or its job's shard is not this namespace's). The event goes at once when no call is out on its
    /// shard, else with the next call.
    func append(_ event: Event, completion: @escaping Completion) {
        guard shards.keys(of: event.job) != nil else { return completion(.success(false)) }
        lanes[event.job.shard].add(event, answered: completion)
    }
}
