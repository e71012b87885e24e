public import KilnQueue
import Locking

/// Where a worker's heartbeats go, in memory: every beat delivered with the counts it carried, the workers that left,
/// and as many beats as the test asks refused, as a Redis that is away refuses them.
public final class MemoryHeartbeats: HeartbeatSink {
    private struct State {
        var beats: [WorkerHeartbeat] = []
        var ended = OutcomeTally()
        var refusals: Int
        var left: [String] = []
    }

    private let state: Locked<State>

    /// - Parameter refusing: how many beats fail before one is taken.
    public init(refusing: Int = 0) {
        state = Locked(State(refusals: refusing))
    }

    /// The beats delivered, oldest first.
    public var beats: [WorkerHeartbeat] { state.withLock { $0.beats } }
    /// Everything the delivered beats counted.
    public var ended: OutcomeTally { state.withLock { $0.ended } }
    public var left: [String] { state.withLock { $0.left } }

    public func beat(_ heartbeat: WorkerHeartbeat, ended: OutcomeTally, expiresAfter: Duration) async throws -> Int64 {
        try state.withLock { state in
            if state.refusals > 0 {
                state.refusals -= 1
                throw Refused()
            }
            state.beats.append(heartbeat)
            state.ended.merge(ended)
            return Int64(state.beats.count)
        }
    }

    public func leave(_ worker: String) async throws {
        state.withLock { $0.left.append(worker) }
    }

    private struct Refused: Error {}
}
