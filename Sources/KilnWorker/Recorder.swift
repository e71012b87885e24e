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
        try await jobs.record(snapshots.map(JobRecord.init(snapshot:)))
        try await queue.markRecorded(snapshots.map(\.id))
        logger.trace("recorded jobs", metadata: ["job.count": "\(snapshots.count)"])
    }
}

extension JobRecord {
    init(snapshot: JobSnapshot) {
        func date(_ milliseconds: Int64?) -> Date? {
            milliseconds.map { Date(timeIntervalSince1970: Double($0) / 1000) }
        }
        self.init(
            id: snapshot.id, tenant: snapshot.tenant, identity: snapshot.identity, kind: snapshot.kind,
            priority: snapshot.priority, state: snapshot.state, attempt: snapshot.attempt, maxAttempts: snapshot.maxAttempts,
            input: snapshot.input, result: snapshot.result, errorCode: snapshot.errorCode, errorMessage: snapshot.errorMessage,
            createdAt: Date(timeIntervalSince1970: Double(snapshot.createdAtMilliseconds) / 1000),
            startedAt: date(snapshot.startedAtMilliseconds), finishedAt: date(snapshot.finishedAtMilliseconds))
    }
}
