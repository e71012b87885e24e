import KilnAPI
import KilnQueue
import ServiceFailures

/// Redis's health and the queue's figures: answering with `figures`, or not at all.
struct MemoryQueueHealth: QueueHealth {
    var figures = QueueStats(ready: [], inFlight: 0, delayed: 0, dead: 0, unrecorded: 0)
    var isDown = false

    func ping() async throws {
        if isDown { throw Unreachable(service: .redis) }
    }

    func stats() async throws -> QueueStats {
        try await ping()
        return figures
    }
}
