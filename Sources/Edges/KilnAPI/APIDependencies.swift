public import Foundation
public import KilnAdmission
public import KilnCore
public import KilnIdentity
public import KilnPolicy
public import KilnQueue

/// What the API node talks to, each as a protocol of the shape its routes use: Redis's roles and PostgreSQL's stores
/// in production (``init(redis:keys:jobs:artifacts:uploads:shares:entitlements:partners:campaigns:tenants:webhookSecrets:eraser:catalog:policies:identities:clock:metricsText:)``),
/// in-memory fakes in the unit tests.
public struct APIDependencies: Sendable {
    /// Submitting, reading, cancelling and following jobs.
    public var queue: any SubmissionQueue
    /// The quota counters `GET /v1/quota` reads.
    public var quota: any QuotaCounters
    /// Identities' standings cached in Redis.
    public var standings: any StandingCaching
    /// Redis's health and the queue's statistics, for `/readyz` and `/metrics`.
    public var health: any QueueHealth
    public var keys: any TenantKeys
    public var jobs: any JobRecords
    public var artifacts: any ArtifactCatalog
    public var uploads: any UploadRecords
    /// Published reading paths: the web reader's pages and their revocation.
    public var shares: any SharedPages
    /// Entitlements the webhooks apply, and the standings admission reads from them on a cache miss.
    public var entitlements: any EntitlementRecords & EntitlementStandings
    public var partners: any PartnerLinks
    /// WorldArchitect's campaigns, for `/v1/campaigns` and the MCP tools.
    public var campaigns: any CampaignRecords
    /// MCP's sessions and resumable answers.
    public var mcpSessions: any MCPSessions
    /// Tenants by id, for the MCP endpoints, whose path names the tenant.
    public var tenants: any TenantDirectory
    public var webhookSecrets: any WebhookSecrets
    /// Erases an identity's data when it asks (`DELETE /v1/identity`).
    public var eraser: any IdentityErasing
    /// How often it may ask.
    public var erasureLimits: any ErasureAdmission
    public var catalog: JobKindCatalog
    /// Each tenant's quotas, cooldowns and tiers; a tenant without a policy is not metered.
    public var policies: PolicySet

    /// Admission's lookup of an identity's standing: the Redis cache, then PostgreSQL.
    var standingLookup: StandingLookup {
        StandingLookup(cache: standings, entitlements: entitlements, policies: policies)
    }
    /// Each policy's identity modes, with the certificates, keys and secrets they verify with.
    public var identities: IdentityVerifierSet
    /// Now, for quota days: tests move it across midnight.
    public var clock: @Sendable () -> Date
    /// The Prometheus text exposition of the process's metrics.
    public var metricsText: @Sendable () -> String

    /// - Parameter redis: the namespace whose roles serve as the queue, the quota counters, the standing cache and the
    ///   queue's health.
    public init(
        redis: RedisNamespace, keys: any TenantKeys, jobs: any JobRecords, artifacts: any ArtifactCatalog, uploads: any UploadRecords,
        shares: any SharedPages, entitlements: any EntitlementRecords & EntitlementStandings, partners: any PartnerLinks,
        campaigns: any CampaignRecords, tenants: any TenantDirectory, webhookSecrets: any WebhookSecrets, eraser: any IdentityErasing,
        catalog: JobKindCatalog, policies: PolicySet,
        identities: IdentityVerifierSet, clock: @escaping @Sendable () -> Date = Date.init,
        metricsText: @escaping @Sendable () -> String
    ) {
        self.queue = redis.queue
        self.quota = redis.quota
        self.standings = redis.standings
        self.health = redis.admin
        self.keys = keys
        self.jobs = jobs
        self.artifacts = artifacts
        self.uploads = uploads
        self.shares = shares
        self.entitlements = entitlements
        self.partners = partners
        self.campaigns = campaigns
        self.mcpSessions = redis.mcp
        self.tenants = tenants
        self.webhookSecrets = webhookSecrets
        self.eraser = eraser
        self.erasureLimits = redis.erasureLimits
        self.catalog = catalog
        self.policies = policies
        self.identities = identities
        self.clock = clock
        self.metricsText = metricsText
    }
}
