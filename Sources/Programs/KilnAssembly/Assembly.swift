public import CurlClient
public import Foundation
public import KilnAPI
public import KilnHandlers
public import KilnIdentity
public import KilnPolicy
import KilnPrivacy
public import KilnProviders
public import KilnQueue
public import KilnStore
public import KilnWorker
public import Logging
public import PostgresClient

/// What every Kiln process is built from — one Redis namespace, PostgreSQL and the object store — and the API node's
/// dependencies and the worker made from them, assembled in this one place for `kiln` and for the tests alike.
public struct Assembly: Sendable {
    public let namespace: RedisNamespace
    public let database: PostgresPool
    public let objects: any ObjectBackend

    public init(namespace: RedisNamespace, database: PostgresPool, objects: any ObjectBackend) {
        self.namespace = namespace
        self.database = database
        self.objects = objects
    }

    /// What the API node talks to. `clock` is now for quota days (tests move it across midnight).
    public func apiDependencies(
        policies: PolicySet, identities: IdentityVerifierSet, clock: @escaping @Sendable () -> Date = Date.init,
        metricsText: @escaping @Sendable () -> String
    ) -> APIDependencies {
        let database = self.database
        return APIDependencies(
            redis: namespace, keys: APIKeyStore(pool: database), jobs: JobStore(pool: database),
            artifacts: ArtifactStore(pool: database, objects: objects), uploads: UploadStore(pool: database, objects: objects),
            shares: ShareStore(pool: database, objects: objects), entitlements: EntitlementStore(pool: database),
            partners: PartnerStore(pool: database), campaigns: CampaignStore(pool: database),
            tenants: TenantStore(pool: database), webhookSecrets: WebhookSecretStore(pool: database),
            eraser: IdentityEraser(namespace: namespace, records: IdentityRecords(pool: database, objects: objects)),
            catalog: KindDefinition.catalog, policies: policies, identities: identities, clock: clock,
            metricsText: metricsText)
    }

    /// A worker over the namespace's queue, recording to PostgreSQL and the object store, publishing its heartbeat
    /// to the namespace's fleet with the readings of `providers` (its routes), if given.
    public func worker(
        handlers: HandlerRegistry, configuration: WorkerConfiguration, logger: Logger, providers: ProviderRoutes? = nil
    ) -> Worker {
        let records = StoreRecords(
            jobs: JobStore(pool: database), ledger: QuotaLedger(pool: database), artifacts: ArtifactStore(pool: database, objects: objects))
        return Worker(
            queue: namespace.queue, records: records, handlers: handlers, configuration: configuration, logger: logger, fleet: namespace.fleet,
            providerReadings: {
                guard let readings = providers?.readings else { return [] }
                do {
                    return try await readings.current()
                } catch {
                    logger.warning("reading the providers failed", metadata: ["error": "\(error)"])
                    return []
                }
            })
    }

    /// The routes to the providers of `providers` over `http`, parked and capped fleet-wide in the namespace; built
    /// once per worker, so that their circuits remember across jobs.
    public func providerRoutes(_ providers: ProviderConfiguration, http: HTTPClient) -> ProviderRoutes {
        let parking = ProviderParking(redis: namespace.redis, keys: namespace.shards.control)
        let concurrency = ProviderConcurrency(redis: namespace.redis, keys: namespace.shards.control)
        let text = TextRouting(configuration: providers, http: http, parking: parking, concurrency: concurrency)
        let images = ImageRouting(configuration: providers, http: http, parking: parking, concurrency: concurrency)
        return ProviderRoutes(
            configuration: providers, text: text, images: images,
            readings: ProviderReadings(text: text, images: images, parking: parking, concurrency: concurrency))
    }

    /// Everything the handlers may need: the routes to the providers (``providerRoutes(_:http:)``), the moderation
    /// model their configuration names judging by each tenant's strictness, and the stores.
    public func handlerDependencies(
        providers: ProviderRoutes, http: HTTPClient, policies: PolicySet, publicURL: String, logger: Logger
    ) -> HandlerDependencies {
        HandlerDependencies(
            policies: policies, routing: providers.text, usage: ProviderUsageStore(pool: database),
            safety: Self.safety(providers.configuration, policies: policies, http: http), images: providers.images,
            uploads: UploadStore(pool: database, objects: objects), shares: ShareStore(pool: database, objects: objects, logger: logger),
            publicURL: publicURL)
    }

    /// The moderation model the provider file names, judging by each tenant's strictness (`standard` without a policy).
    private static func safety(_ configuration: ProviderConfiguration, policies: PolicySet, http: HTTPClient) -> ContentSafety? {
        guard let moderation = configuration.moderation, let provider = configuration.providers[moderation.provider] else { return nil }
        return ContentSafety(
            moderation: ModerationClient(http: http, endpoint: provider.endpoint, model: moderation.model, name: provider.name),
            strictness: { policies[$0]?.safety ?? .standard })
    }
}
