import Foundation
import LoadTesting
import Locking

/// One wave of a generator process: `lanes` requests in flight at once. Lane n sends requests n, n + lanes, …, each
/// from the answer to the one before, so all lanes move down the list together and the requests of one identity, which
/// are neighbours in it, are in flight at once. No task waits on a request: the answers come on the decider's thread.
final class WaveLanes: Sendable {
    private struct Progress {
        var decisions: [Decision] = []
        var lanesRunning: Int
    }

    private let requests: [PlannedRequest]
    private let wave: Int
    private let lanes: Int
    private let decider: any AdmissionDecider
    private let progress: Locked<Progress>
    private let finished: @Sendable ([Decision]) -> Void

    private init(
        _ requests: [PlannedRequest], wave: Int, lanes: Int, decider: any AdmissionDecider, finished: @escaping @Sendable ([Decision]) -> Void
    ) {
        self.requests = requests
        self.wave = wave
        self.lanes = lanes
        self.decider = decider
        self.finished = finished
        progress = Locked(Progress(lanesRunning: lanes))
    }

    /// Sends `requests` with `connections` in flight and returns every decision once the last lane has its answer.
    static func send(_ requests: [PlannedRequest], wave: Int, connections: Int, to decider: any AdmissionDecider) async -> [Decision] {
        let lanes = min(connections, requests.count)
        guard lanes > 0 else { return [] }
        return await withCheckedContinuation { continuation in
            let run = WaveLanes(requests, wave: wave, lanes: lanes, decider: decider) { continuation.resume(returning: $0) }
            for lane in 0..<lanes { run.send(lane) }
        }
    }

    private func send(_ index: Int) {
        guard index < requests.count else { return laneEnded() }
        let request = requests[index]
        let sentAt = Int64(Date().timeIntervalSince1970 * 1_000_000)
        let started = ContinuousClock.now
        decider.decide(request) { [self] answer in
            let (seconds, attoseconds) = (ContinuousClock.now - started).components
            let latency = seconds * 1_000_000 + attoseconds / 1_000_000_000_000
            let decision = Decision(
                wave: wave, request: request, status: answer.status, reason: answer.reason, remaining: answer.remaining, sentAt: sentAt,
                answeredAt: sentAt + latency)
            progress.withLock { $0.decisions.append(decision) }
            send(index + lanes)
        }
    }

    private func laneEnded() {
        let decisions = progress.withLock { progress -> [Decision]? in
            progress.lanesRunning -= 1
            return progress.lanesRunning == 0 ? progress.decisions : nil
        }
        if let decisions { finished(decisions) }
    }
}
