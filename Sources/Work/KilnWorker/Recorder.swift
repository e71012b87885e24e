import Foundation
import KilnQueue
import Logging

/// Writes finished jobs (and what metered ones cost, to the quota ledger) to PostgreSQL in batches, then lets Redis
/// forget them. A job is settled in Redis first
/// (the fenced step), so only the attempt that held the lease gets here; what a crash leaves unrecorded is
/// picked up by the sweep.
struct Recorder: Sendable {
    let queue: any WorkSource
    let records: any WorkerRecords
    let logger: Logger

    /// Records these jobs and marks them recorded.
    func record(_ finished: [FinishedJob]) async throws {
        guard !finished.isEmpty else { return }
        try await records.record(finished.map(\.record), charges: finished.compactMap(\.charge))
        try await queue.markRecorded(finished)
        logger.trace("recorded jobs", metadata: ["job.count": "\(finished.count)"])
    }

    /// Records finished jobs that nobody recorded for `age`.
    func sweep(olderThan age: Duration, limit: Int) async throws {
        try await record(queue.unrecorded(olderThan: age, limit: limit).compactMap(\.finished))
    }
}
