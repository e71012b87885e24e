public import KilnCore
public import Logging
public import PostgresClient

/// The quota ledger: what each metered job finally cost its subject, written by workers with the job's record.
/// Redis holds the live counters; the reconciler checks them against this and rebuilds them from it.
public struct QuotaLedger: Sendable {
    private let pool: PostgresPool
    private let logger: Logger

    public init(pool: PostgresPool, logger: Logger? = nil) {
        self.pool = pool
        self.logger = logger ?? .disabled
    }

    /// Records entries; a job's entry is written once (its reservation settles once), so a repeat changes nothing.
    public func record(_ entries: [QuotaLedgerEntry]) async throws {
        guard !entries.isEmpty else { return }
        let batch = entries.sorted { $0.job.rawValue < $1.job.rawValue }
        _ = try await pool.execute(
            """
            INSERT INTO quota_ledger (job_id, tenant_id, subject, day, quota_class, units, outcome)
            SELECT * FROM unnest($1::uuid[], $2::text[], $3::text[], $4::text[], $5::text[], $6::int[], $7::text[])
            ON CONFLICT (job_id) DO NOTHING
            """,
            [
                batch.map(\.job.rawValue), batch.map(\.tenant.rawValue), batch.map(\.subject), batch.map(\.day), batch.map(\.quotaClass),
                batch.map(\.units), batch.map(\.outcome.rawValue),
            ]
        )
        logger.debug("quota ledger recorded", metadata: ["entries.count": "\(batch.count)"])
    }

    /// Each subject's units of each class on one day: committed and released.
    public func totals(tenant: TenantID, day: String) async throws -> [QuotaTotal] {
        try await pool.query(
            """
            SELECT subject, quota_class,
                coalesce(sum(units) FILTER (WHERE outcome = 'committed'), 0)::int AS committed,
                coalesce(sum(units) FILTER (WHERE outcome = 'released'), 0)::int AS released
            FROM quota_ledger WHERE tenant_id = $1 AND day = $2
            GROUP BY subject, quota_class ORDER BY subject, quota_class
            """,
            [tenant.rawValue, day]
        ).map { row in
            QuotaTotal(
                subject: try row.decode("subject", as: String.self), quotaClass: try row.decode("quota_class", as: String.self),
                committed: try row.decode("committed", as: Int.self), released: try row.decode("released", as: Int.self))
        }
    }
}
