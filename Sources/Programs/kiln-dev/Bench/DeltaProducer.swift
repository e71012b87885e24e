import Dispatch
import KilnCore
import KilnQueue
import Locking

/// The workers of the followers' benchmark: running jobs' deltas written through the queue as a worker writes them
/// (``JobQueue/emit(_:data:job:attempt:sequence:progress:completion:)``), each job's spread over the interval so the
/// jobs' deltas interleave as real ones do, with the leases renewed meanwhile.
struct DeltaProducer {
    let queue: JobQueue
    let jobs: [ClaimedJob]

    /// Streams a delta of each job every `interval` for `duration`; each delta's data carries its number in its job
    /// (`"n"`, from 1) and when it was written (`"t"`, monotonic nanoseconds). - Returns: how many deltas each job
    /// streamed.
    func stream(every interval: Duration, for duration: Duration) async throws -> Int {
        let perJob = max(Int(duration / interval), 1)
        let leases = jobs.map { ($0.id, $0.attempt) }
        let renewal = Task {
            while (try? await Task.sleep(for: .seconds(1))) != nil { _ = try? await queue.renew(leases) }
        }
        defer { renewal.cancel() }
        let failures = Locked(0)
        let start = ContinuousClock.now
        for number in 1...perJob {
            for (index, job) in jobs.enumerated() {
                let due = start + interval * (number - 1) + interval * index / jobs.count
                if due > .now + .milliseconds(1) { try await Task.sleep(until: due, clock: .continuous) }
                let data = #"{"text":"word ","n":\#(number),"t":\#(DispatchTime.now().uptimeNanoseconds)}"#
                queue.emit("delta", data: data, job: job.id, attempt: job.attempt, sequence: number) { result in
                    if case .success(true) = result { return }
                    failures.withLock { $0 += 1 }
                }
            }
        }
        if failures.withLock({ $0 }) > 0 { print("  \(failures.withLock { $0 }) deltas were not appended") }
        return perJob
    }

    /// Ends every job as succeeded: its final status ends its followers' streams.
    func finish() async throws {
        for start in stride(from: 0, to: jobs.count, by: 500) {
            let settlements = jobs[start..<min(start + 500, jobs.count)].map {
                Settlement(job: $0.id, attempt: $0.attempt, outcome: .succeeded(result: "{}"))
            }
            _ = try await queue.settle(Array(settlements))
        }
    }
}
