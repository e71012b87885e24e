import ArgumentParser
import Foundation
import CurlClient
import Hummingbird
import KilnCommandLine
import KilnCore
import KilnHandlers
import KilnPolicy
import KilnProviders
import KilnQueue
import KilnStore
import KilnWorker
import ServiceLifecycle
import UnixSignals

struct WorkerCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "worker", abstract: "Claim and run jobs until SIGTERM, then drain.")

    @OptionGroup var connections: ConnectionOptions

    @Option(help: "How many io-class jobs (provider calls) run at once; 0 serves none.")
    var io = 64

    @Option(help: "How many cpu-class jobs (rendering) run at once; 0 serves none.")
    var cpu = 2

    @Option(help: "The most jobs one claim takes.")
    var claimBatch = 256

    @Option(help: "Seconds running jobs may take to finish after SIGTERM before they are handed back.")
    var shutdownGrace = 10.0

    @Option(help: "Serve this worker's Prometheus metrics on 127.0.0.1:PORT/metrics (env KILN_WORKER_METRICS_PORT); 0 serves none.")
    var metricsPort: Int = Int(ProcessInfo.processInfo.environment["KILN_WORKER_METRICS_PORT"] ?? "") ?? 0

    @Option(help: "The provider configuration: providers, their keys, and the models that serve each tenant's kinds (env KILN_PROVIDERS).")
    var providers = ProcessInfo.processInfo.environment["KILN_PROVIDERS"] ?? "deploy/providers.json"

    @OptionGroup var policyOptions: PolicyOptions

    @Option(help: "Where the API is reached from the internet: published pages' addresses start with it (env KILN_PUBLIC_URL).")
    var publicURL = ProcessInfo.processInfo.environment["KILN_PUBLIC_URL"] ?? "http://127.0.0.1:8787"

    func validate() throws {
        // Every published page's address starts with it; a typo would show only in the pages' links.
        guard let url = URLComponents(string: publicURL), ["http", "https"].contains(url.scheme), url.host?.isEmpty == false,
            url.query == nil, url.fragment == nil, url.path.isEmpty || url.path == "/"
        else { throw ValidationError("--public-url must be an http or https address without a path, such as https://kiln.example.com") }
    }

    func run() async throws {
        let providerConfiguration = try loadProviders()
        let policies = try policyOptions.load()
        let logger = Bootstrap.logger("kiln.worker")
        let metricsText = Bootstrap.metrics()
        let runtime = try Runtime(connections)
        let http = try HTTPClient(configuration: HTTPClientConfiguration(maxConnectionsPerHost: 1024))
        defer { http.shutdown() }
        let parking = ProviderParking(redis: runtime.redis, keys: runtime.namespace.keys)
        let concurrency = ProviderConcurrency(redis: runtime.redis, keys: runtime.namespace.keys)
        let routing = TextRouting(configuration: providerConfiguration, http: http, parking: parking, concurrency: concurrency)
        let images = ImageRouting(configuration: providerConfiguration, http: http, parking: parking, concurrency: concurrency)
        try await runtime.namespace.prepare()
        var configuration = WorkerConfiguration()
        configuration.concurrency = [.io: io, .cpu: cpu]
        configuration.claimBatch = claimBatch
        configuration.shutdownGrace = .milliseconds(Int64(shutdownGrace * 1000))
        let dependencies = HandlerDependencies(
            policies: policies, routing: routing, usage: ProviderUsageStore(pool: runtime.database),
            safety: Self.safety(providerConfiguration, policies: policies, http: http), images: images,
            uploads: UploadStore(pool: runtime.database, objects: runtime.objects),
            shares: ShareStore(pool: runtime.database, objects: runtime.objects, logger: logger), publicURL: publicURL)
        // Every kind of the classes this worker claims: one it could not serve stops it here, not its jobs later.
        let served = Set(configuration.concurrency.filter { $0.value > 0 }.keys)
        let handlers = try HandlerRegistry(offering: KindDefinition.all.filter { served.contains($0.kind.jobClass) }, dependencies: dependencies)
        let worker = Worker(
            queue: runtime.namespace.queue,
            records: StoreRecords(
                jobs: JobStore(pool: runtime.database), ledger: QuotaLedger(pool: runtime.database),
                artifacts: ArtifactStore(pool: runtime.database, objects: runtime.objects)),
            handlers: handlers, configuration: configuration, logger: logger)
        var services: [any Service] = [worker]
        if metricsPort > 0 {
            let router = Router()
            router.get("/metrics") { _, _ in metricsText() }
            services.append(Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: metricsPort)), logger: logger))
        }
        let group = ServiceGroup(services: services, gracefulShutdownSignals: [.sigterm, .sigint], logger: logger)
        try await group.run()
        try await runtime.close()
    }

    /// The moderation model the provider file names, judging by each tenant's strictness (`standard` without a policy).
    private static func safety(_ configuration: ProviderConfiguration, policies: PolicySet, http: HTTPClient) -> ContentSafety? {
        guard let moderation = configuration.moderation, let provider = configuration.providers[moderation.provider] else { return nil }
        return ContentSafety(
            moderation: ModerationClient(http: http, endpoint: provider.endpoint, model: moderation.model, name: provider.name),
            strictness: { policies[$0]?.safety ?? .standard })
    }

    /// A file that is missing or wrong stops the worker at start, naming the field.
    private func loadProviders() throws -> ProviderConfiguration {
        let url = URL(fileURLWithPath: providers)
        guard let data = FileManager.default.contents(atPath: url.path) else { throw ValidationError("\(providers): cannot be read") }
        do {
            return try ProviderConfiguration.load(data, environment: ProcessInfo.processInfo.environment, directory: url.deletingLastPathComponent())
        } catch {
            throw ValidationError("\(providers): \(error)")
        }
    }
}
