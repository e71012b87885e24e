import Foundation
import HTTPTypes
import KilnAPI
import KilnAssembly
import KilnCore
import KilnIdentity
import KilnPolicy
import KilnQueue
import KilnStore
import PostgresClient
import RedisClient
import ServiceFailures
import Testing

/// The API's router as `kiln api` assembles it, with every store and Redis role replaced by its in-memory fake: what an
/// app gets from each route, without Redis or PostgreSQL, in milliseconds. One tenant, `acme`, with diagnostics on;
/// unmetered (identities vouched for by its server with `Kiln-Identity`) unless ``metered`` gives it
/// ``policyJSON``'s policy.
struct TestAPI {
    static let key = "kiln_test_key"
    static let tenant = TenantID(validating: "acme")!
    /// Where the test's clock stands: 2026-09-21, mid-morning UTC.
    static let now = Date(timeIntervalSince1970: 1_790_000_000)

    /// `acme`'s policy when metered: 2 text units a day for `free`, 1000 for `pro` (granted by the entitlement `pro`);
    /// `diag.sleep` is `pro`'s only; partners may link.
    static let policyJSON = """
        {"acme": {
          "identity_modes": ["trusted_server"], "reset_time_zone": "UTC", "safety": "standard",
          "tiers": {
            "free": {"lowest": true, "daily": {"text": 2}, "running_jobs": 5, "refund_cap": 1, "max_devices_per_day": 4,
                     "excluded_kinds": ["diag.sleep"]},
            "pro": {"daily": {"text": 1000}, "running_jobs": 5, "refund_cap": 1, "max_devices_per_day": 4, "entitlements": ["pro"],
                    "products": ["pro_monthly"]}
          },
          "kinds": {"diag.echo": {"class": "text", "cost": 1}, "diag.sleep": {"class": "text", "cost": 1}},
          "partners": {"unlink_cooldown_seconds": 86400},
          "abuse": {"shadow_mode": true, "max_identities_per_device_per_day": 3,
                    "identity_velocity": {"count": 10, "period_seconds": 60, "burst": 5},
                    "ip_velocity": {"count": 60, "period_seconds": 60, "burst": 30},
                    "refund_ratio": {"min_count": 3, "ratio": 0.5}, "safety_rejections": {"min_count": 3, "ratio": 0.3},
                    "escalation": {"cooldown_seconds": 600, "block_seconds": 86400}}
        }}
        """

    var queue = MemorySubmissionQueue()
    var standings = MemoryStandings()
    var health = MemoryQueueHealth()
    var records = MemoryRecords()
    var uploads = MemoryUploads()
    var shares = MemoryShares()
    var entitlements = MemoryEntitlements()
    var partners = MemoryPartners(now: now)
    var webhookSecrets = MemoryWebhookSecrets(secrets: [:])
    var eraser = MemoryEraser()
    var campaigns = MemoryCampaigns()
    var policies = PolicySet.none
    /// Verifies App Store notifications for `acme` when set (its policy must be too).
    var appStore: AppStoreVerifier?
    var configuration = APIConfiguration()

    /// `acme` with ``policyJSON``'s policy.
    static func metered() throws -> TestAPI {
        var api = TestAPI()
        api.policies = try PolicySet.parse(Data(policyJSON.utf8))
        return api
    }

    /// Requests from `identity`, vouched for by `acme`'s server, perhaps with the tier it asserts.
    static func headers(_ identity: String = "user-1", tier: String? = nil) -> HTTPFields {
        var headers: HTTPFields = [.authorization: "Bearer \(key)", .kilnIdentity: identity, .contentType: "application/json"]
        if let tier { headers[.kilnTier] = tier }
        return headers
    }

    /// The router over the fakes. The pools `Assembly` is made with point at ports nothing listens on: no route
    /// reaches them.
    func driver() throws -> RouterDriver {
        let tenant = Tenant(
            id: Self.tenant, name: "Acme", weight: 1, runningCap: 10, diagnostics: true, createdAt: Date(timeIntervalSince1970: 1_780_000_000))
        let redis = RedisPool(configuration: try #require(RedisConfiguration(url: "redis://127.0.0.1:1")))
        let database = try PostgresPool(configuration: PostgresConfiguration(url: "postgresql://nobody@127.0.0.1:1/none"))
        let objects = ObjectStore(root: FileManager.default.temporaryDirectory.appendingPathComponent("kiln-api-unit"))
        let namespace = try RedisNamespace(redis: redis)
        var verifiers: [TenantID: IdentityVerifier] = [:]
        if let policy = policies[Self.tenant] { verifiers[Self.tenant] = IdentityVerifier(policy: policy, appStore: appStore) }
        var dependencies = Assembly(namespace: namespace, database: database, objects: objects).apiDependencies(
            policies: policies, identities: IdentityVerifierSet(verifiers: verifiers), clock: { Self.now }, metricsText: { "" })
        dependencies.queue = queue
        dependencies.quota = queue.quota
        dependencies.standings = standings
        dependencies.health = health
        dependencies.keys = MemoryTenantKeys(tenants: [Self.key: tenant])
        dependencies.jobs = records
        dependencies.artifacts = records
        dependencies.uploads = uploads
        dependencies.shares = shares
        dependencies.entitlements = entitlements
        dependencies.partners = partners
        dependencies.webhookSecrets = webhookSecrets
        dependencies.eraser = eraser
        dependencies.erasureLimits = UnlimitedErasures()
        dependencies.campaigns = campaigns
        return RouterDriver(APIServer.router(dependencies: dependencies, configuration: configuration))
    }
}

extension HTTPField.Name {
    static let kilnIdentity = HTTPField.Name("Kiln-Identity")!
    static let kilnTier = HTTPField.Name("Kiln-Tier")!
    static let idempotencyKey = HTTPField.Name("Idempotency-Key")!
}
