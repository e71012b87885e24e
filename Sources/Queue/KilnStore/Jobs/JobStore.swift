public import KilnCore
public import Logging
public import PostgresClient

/// The record of jobs: workers write it, the API reads it.
public struct JobStore: Sendable {
    private let pool: PostgresPool
    private let logger: Logger

    public init(pool: PostgresPool, logger: Logger? = nil) {
        self.pool = pool
        self.logger = logger ?? .disabled
    }

    /// Inserts or updates many jobs in one statement, fenced by attempt: a row is replaced only by a write of the
    /// same or a later attempt, for the same tenant. Returns how many rows were written (fenced-out ones are not).
    /// Of several records of one job in the batch, the one of the highest attempt (the last, on a tie) is written.
    public func record(_ jobs: [JobRecord]) async throws -> Int {
        var latest: [JobID: JobRecord] = [:]
        for job in jobs where (latest[job.id]?.attempt ?? .min) <= job.attempt {
            latest[job.id] = job
        }
        guard !latest.isEmpty else { return 0 }
        // Rows in id order, so concurrent batches lock shared rows in one order and cannot deadlock.
        let batch = latest.values.map(\.storable).sorted { $0.id.rawValue < $1.id.rawValue }
        // One array per column, unnested into rows by the server: one round trip and one plan for any batch size.
        let parameters: [any PostgresEncodable] = [
            batch.map(\.id.rawValue), batch.map(\.tenant.rawValue), batch.map(\.identity.rawValue), batch.map(\.kind),
            batch.map(\.priority.rawValue), batch.map(\.state.rawValue), batch.map(\.attempt), batch.map(\.maxAttempts),
            batch.map(\.input), batch.map(\.result), batch.map(\.errorCode), batch.map(\.errorMessage),
            batch.map(\.createdAt), batch.map(\.startedAt), batch.map(\.finishedAt),
        ]
        let written = try await pool.execute(
            """
            INSERT INTO jobs AS j (id, tenant_id, identity, kind, priority, state, attempt, max_attempts, input, result,
                error_code, error_message, created_at, started_at, finished_at)
            SELECT * FROM unnest($1::uuid[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::int[],
                $8::int[], $9::jsonb[], $10::jsonb[], $11::text[], $12::text[], $13::timestamptz[], $14::timestamptz[],
                $15::timestamptz[])
            ON CONFLICT (id) DO UPDATE SET
                priority = EXCLUDED.priority, state = EXCLUDED.state, attempt = EXCLUDED.attempt,
                max_attempts = EXCLUDED.max_attempts, result = EXCLUDED.result, error_code = EXCLUDED.error_code,
                error_message = EXCLUDED.error_message, started_at = EXCLUDED.started_at,
                finished_at = EXCLUDED.finished_at, recorded_at = now()
            WHERE j.attempt <= EXCLUDED.attempt AND j.tenant_id = EXCLUDED.tenant_id
            """,
            parameters
        )
        logger.debug("jobs recorded", metadata: ["jobs.count": "\(batch.count)", "jobs.written": "\(written)"])
        return written
    }

    /// The job with this id, if it belongs to `tenant`.
    public func find(id: JobID, tenant: TenantID) async throws -> JobRecord? {
        try await pool.query(
            "SELECT \(JobRecord.columns) FROM jobs WHERE id = $1 AND tenant_id = $2", [id.rawValue, tenant.rawValue]
        ).first.map(JobRecord.init(row:))
    }
}
