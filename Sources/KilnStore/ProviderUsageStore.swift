public import Foundation
public import KilnCore
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

    public init(pool: PostgresPool) {
        self.pool = pool
    }

    public func record(_ usage: ProviderUsageRecord) async throws {
        _ = try await self.pool.execute(
            """
            INSERT INTO provider_usage (job_id, tenant_id, attempt, provider, model, input_tokens, output_tokens, images)
            VALUES ($1::uuid, $2, $3, $4, $5, $6, $7, $8)
            """,
            [
                usage.job.rawValue, usage.tenant.rawValue, usage.attempt, usage.provider, usage.model, usage.inputTokens, usage.outputTokens,
                usage.images,
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
