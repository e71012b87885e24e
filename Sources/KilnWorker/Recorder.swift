import Foundation
import KilnCore
import KilnQueue
import KilnStore
import Logging

/// Writes finished jobs to PostgreSQL in batches, then lets Redis forget them. A job is settled in Redis first
/// (the fenced step), so only the attempt that held the lease gets here; what a crash leaves unrecorded is
/// picked up by the sweep.
struct Recorder: Sendable {
    let queue: JobQueue
    let jobs: JobStore
    let logger: Logger

    /// Records these jobs (reading their final state from Redis) and marks them recorded.
    func record(_ ids: [JobID]) async throws {
        guard !ids.isEmpty else { return }
        let snapshots = try await queue.snapshots(ids).compactMap { $0 }.filter { $0.state.isTerminal }
        try await write(snapshots)
    }

    /// Records finished jobs that nobody recorded for `age`.
    func sweep(olderThan age: Duration, limit: Int) async throws {
        try await write(queue.unrecorded(olderThan: age, limit: limit).filter { $0.state.isTerminal })
    }

    private func write(_ snapshots: [JobSnapshot]) async throws {
        guard !snapshots.isEmpty else { return }
        try await jobs.record(snapshots.map(\.record))
        try await queue.markRecorded(snapshots.map { ($0.id, $0.finishedAtMilliseconds) })
        logger.trace("recorded jobs", metadata: ["job.count": "\(snapshots.count)"])
    }
}
