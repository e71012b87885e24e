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
