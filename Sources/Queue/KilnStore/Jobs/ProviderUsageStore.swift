public import Foundation
public import KilnCore
import Locking
public import PostgresClient

/// What one provider call consumed, as the provider counted it.
public struct ProviderUsageRecord: Sendable, Equatable {
    public var job: JobID
    public var tenant: TenantID
    public var attempt: Int
    public var provider: String
    public var model: String
    public var inputTokens: Int
    public var outputTokens: Int
    public var images: Int

    public init(
        job: JobID, tenant: TenantID, attempt: Int, provider: String, model: String, inputTokens: Int, outputTokens: Int, images: Int = 0
    ) {
        self.job = job
        self.tenant = tenant
        self.attempt = attempt
        self.provider = provider
        self.model = model
        self.inputTokens = inputTokens
        self.outputTokens = outputTokens
        self.images = images
    }
}

/// Token and image usage per job in PostgreSQL, one row per provider answer (`migrations/0004_provider_usage.sql`).
public struct ProviderUsageStore: Sendable {
    private let pool: PostgresPool
    /// The rows on their way in: one `INSERT` at a time, and the rows recorded while it runs go together in the next.
    private let inserts: CallLane<ProviderUsageRecord, Result<Void, any Error>>

    public init(pool: PostgresPool) {
        self.pool = pool
        inserts = CallLane(mostPerCall: 200) { records, answered in
            Task { answered(.success(await Self.insert(records, into: pool))) }
        }
    }

    /// Records what one provider answer consumed, and returns once it is stored. A worker ending many streaming calls
    /// at once writes their rows in a few statements rather than one transaction each.
    public func record(_ usage: ProviderUsageRecord) async throws {
        try await inserts.add(usage).get()
    }

    /// Inserts the rows in one statement; when it fails, each row alone, so a row the table refuses fails its own
    /// answer only. - Returns: each row's outcome, in order.
    private static func insert(_ records: [ProviderUsageRecord], into pool: PostgresPool) async -> [Result<Void, any Error>] {
        do {
            try await insertTogether(records, into: pool)
            return records.map { _ in .success(()) }
        } catch {
            guard records.count > 1 else { return [.failure(error)] }
            var outcomes: [Result<Void, any Error>] = []
            for record in records {
                do {
                    try await insertTogether([record], into: pool)
                    outcomes.append(.success(()))
                } catch {
                    outcomes.append(.failure(error))
                }
            }
            return outcomes
        }
    }

    /// One array per column, unnested into rows by the server: one round trip and one plan for any number of rows.
    private static func insertTogether(_ records: [ProviderUsageRecord], into pool: PostgresPool) async throws {
        _ = try await pool.execute(
            """
            INSERT INTO provider_usage (job_id, tenant_id, attempt, provider, model, input_tokens, output_tokens, images)
            SELECT * FROM unnest($1::uuid[], $2::text[], $3::int[], $4::text[], $5::text[], $6::int[], $7::int[], $8::int[])
            """,
            [
                records.map(\.job.rawValue), records.map(\.tenant.rawValue), records.map(\.attempt), records.map(\.provider),
                records.map(\.model), records.map(\.inputTokens), records.map(\.outputTokens), records.map(\.images),
            ])
    }

    /// Every answer a job's attempts got, oldest first.
    public func usage(of job: JobID) async throws -> [ProviderUsageRecord] {
        try await self.pool.query(
            """
            SELECT job_id::text, tenant_id, attempt, provider, model, input_tokens, output_tokens, images
            FROM provider_usage WHERE job_id = $1::uuid ORDER BY id
            """,
            [job.rawValue]
        ).map { row in
            ProviderUsageRecord(
                job: job, tenant: try row.decode("tenant_id", as: TenantID.self), attempt: try row.decode("attempt", as: Int.self),
                provider: try row.decode("provider", as: String.self), model: try row.decode("model", as: String.self),
                inputTokens: try row.decode("input_tokens", as: Int.self), outputTokens: try row.decode("output_tokens", as: Int.self),
                images: try row.decode("images", as: Int.self))
        }
    }
}

extension ProviderUsageStore {
    /// One tenant's use of one provider on one day (UTC).
    public struct DailyUsage: Sendable, Hashable {
        public let day: String
        public let tenant: String
        public let provider: String
        public let calls: Int
        public let inputTokens: Int
        public let outputTokens: Int
        public let images: Int
    }

    /// Tokens and images by day, tenant and provider since `since`, the latest day first.
    public func daily(since: Date) async throws -> [DailyUsage] {
        try await pool.query(
            """
            SELECT to_char(recorded_at AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS day, tenant_id, provider, count(*) AS calls,
                   sum(input_tokens) AS input_tokens, sum(output_tokens) AS output_tokens, sum(images) AS images
            FROM provider_usage WHERE recorded_at >= $1
            GROUP BY 1, 2, 3 ORDER BY 1 DESC, 2, 3
            """,
            [since]
        ).map { row in
            DailyUsage(
                day: try row.decode("day", as: String.self), tenant: try row.decode("tenant_id", as: String.self),
                provider: try row.decode("provider", as: String.self), calls: try row.decode("calls", as: Int.self),
                inputTokens: try row.decode("input_tokens", as: Int.self), outputTokens: try row.decode("output_tokens", as: Int.self),
                images: try row.decode("images", as: Int.self))
        }
    }
}
