import Foundation
import KilnCore

extension ClaimedJob {
    /// The job as PostgreSQL records it, built from what the worker holds (no read-back from Redis): nil unless the
    /// settle ended the job.
    /// - Parameter result: the JSON text the attempt succeeded with.
    public func finished(_ settled: SettledAttempt, result: String?) -> FinishedJob? {
        guard settled.state.isTerminal else { return nil }
        func date(_ milliseconds: Int64) -> Date { Date(timeIntervalSince1970: Double(milliseconds) / 1000) }
        let record = JobRecord(
            id: id, tenant: tenant, identity: identity, kind: kind, priority: priority, state: settled.state, attempt: attempt,
            maxAttempts: maxAttempts, input: input, result: settled.state == .succeeded ? result : nil,
            errorCode: settled.errorCode, errorMessage: settled.errorMessage, createdAt: date(createdAtMilliseconds),
            startedAt: date(startedAtMilliseconds), finishedAt: date(settled.settledAtMilliseconds))
        let charge = settled.charge.flatMap { QuotaLedgerEntry(job: id, tenant: tenant, queueNotation: $0) }
        return FinishedJob(record: record, finishedAtMilliseconds: settled.settledAtMilliseconds, charge: charge)
    }
}
