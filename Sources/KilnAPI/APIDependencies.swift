public import Foundation
import KilnAdmission
public import KilnCore
public import KilnIdentity
public import KilnPolicy
public import KilnPrivacy
public import KilnQueue
public import KilnStore

/// What the API node talks to.
public struct APIDependencies: Sendable {
    /// Submitting, reading, cancelling and following jobs.
    public var queue: any SubmissionQueue
    /// The quota counters `GET /v1/quota` reads.
    public var quota: QuotaBook
    /// Identities' standings cached in Redis.
    public var standings: StandingCache
    /// Redis's health and the queue's statistics, for `/readyz` and `/metrics`.
    public var admin: QueueAdmin
    public var keys: any TenantKeys
    public var jobs: any JobRecords
    public var artifacts: any ArtifactCatalog
    public var uploads: UploadStore
    /// Published reading paths: the web reader's pages and their revocation.
    public var shares: ShareStore
    public var entitlements: EntitlementStore
    public var partners: PartnerStore
    public var webhookSecrets: WebhookSecretStore
    /// Erases an identity's data when it asks (`DELETE /v1/identity`).
    public var eraser: IdentityEraser
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
    /// Throws when PostgreSQL is unreachable.
    public var checkDatabase: @Sendable () async throws -> Void
    /// The Prometheus text exposition of the process's metrics.
    public var metricsText: @Sendable () -> String

    public init(
        redis: RedisNamespace, keys: any TenantKeys, jobs: any JobRecords, artifacts: any ArtifactCatalog, uploads: UploadStore, shares: ShareStore,
        entitlements: EntitlementStore, partners: PartnerStore, webhookSecrets: WebhookSecretStore, eraser: IdentityEraser,
        catalog: JobKindCatalog,
        policies: PolicySet, identities: IdentityVerifierSet, clock: @escaping @Sendable () -> Date = Date.init,
        checkDatabase: @escaping @Sendable () async throws -> Void, metricsText: @escaping @Sendable () -> String
    ) {
        self.queue = redis.queue
        self.quota = redis.quota
        self.standings = redis.standings
        self.admin = redis.admin
        self.keys = keys
        self.jobs = jobs
        self.artifacts = artifacts
        self.uploads = uploads
        self.shares = shares
        self.entitlements = entitlements
        self.partners = partners
        self.webhookSecrets = webhookSecrets
        self.eraser = eraser
        self.catalog = catalog
        self.policies = policies
        self.identities = identities
        self.clock = clock
        self.checkDatabase = checkDatabase
        self.metricsText = metricsText
    }
}
