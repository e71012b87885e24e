import ArgumentParser
import BuildInfo
import Foundation
import CurlClient
import Hummingbird
import KilnAssembly
import KilnCommandLine
import KilnCore
import KilnHandlers
import KilnPolicy
import KilnProviders
import KilnQueue
import KilnStore
import KilnWorker
import Logging
import ServiceLifecycle
import UnixSignals

struct WorkerCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "worker", abstract: "Claim and run jobs until SIGTERM, then drain.")

    @OptionGroup var connections: ConnectionOptions

    @Option(help: "How many io-class jobs (provider calls) run at once; 0 serves none.")
    var io = 64

    @Option(help: "How many cpu-class jobs (rendering) run at once, at most one per 400 MB of --cpu-memory; 0 serves none.")
    var cpu = 2

    @Option(help: "Megabytes the cpu-class jobs may use together (default: the cgroup's memory limit, else the machine's memory).")
    var cpuMemory: UInt64?

    @Option(help: "The most jobs one claim takes.")
    var claimBatch = 256

    @Option(help: "Seconds running jobs may take to finish after SIGTERM before they are handed back.")
    var shutdownGrace = 10.0

    @Option(help: "Serve this worker's Prometheus metrics on PORT/metrics (env KILN_WORKER_METRICS_PORT); 0 serves none.")
    var metricsPort: Int = Int(ProcessInfo.processInfo.environment["KILN_WORKER_METRICS_PORT"] ?? "") ?? 0

    @Option(help: "The address the metrics are served on (env KILN_WORKER_METRICS_HOST); 0.0.0.0 lets a Prometheus on another host scrape them.")
    var metricsHost = ProcessInfo.processInfo.environment["KILN_WORKER_METRICS_HOST"] ?? "127.0.0.1"

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
        try await runtime.waitForServices(logger: logger)
        var configuration = WorkerConfiguration()
        let budget = cpuMemory.map { CPUMemoryBudget(memory: min($0, UInt64.max >> 20) << 20) } ?? .granted()
        let cpuSlots = budget.slots(requested: cpu)
        if cpuSlots < cpu {
            guard cpuSlots > 0 else {
                throw ValidationError(
                    "--cpu \(cpu): \(budget.memory >> 20) MB of memory holds no cpu-class job (each plans \(CPUMemoryBudget.perJob >> 20) MB)")
            }
            logger.warning(
                "cpu slots limited by memory",
                metadata: ["cpu.requested": "\(cpu)", "cpu.slots": "\(cpuSlots)", "memory.mb": "\(budget.memory >> 20)"])
        }
        configuration.concurrency = [.io: io, .cpu: cpuSlots]
        configuration.claimBatch = claimBatch
        configuration.shutdownGrace = .milliseconds(Int64(shutdownGrace * 1000))
        configuration.version = KilnBuild.fullVersion
        let routes = runtime.assembly.providerRoutes(providerConfiguration, http: http)
        let dependencies = runtime.assembly.handlerDependencies(
            providers: routes, http: http, policies: policies, publicURL: publicURL, logger: logger)
        // Every kind of the classes this worker claims: one it could not serve stops it here, not its jobs later.
        let served = Set(configuration.concurrency.filter { $0.value > 0 }.keys)
        let handlers = try HandlerRegistry(offering: KindDefinition.all.filter { served.contains($0.kind.jobClass) }, dependencies: dependencies)
        // Shut down in reverse: the metrics, then the worker (draining its jobs), then the HTTP client and the pools.
        var services: [any Service] =
            runtime.services + [
                ClosingService { http.shutdown() },
                runtime.assembly.worker(handlers: handlers, configuration: configuration, logger: logger, providers: routes),
            ]
        if metricsPort > 0 {
            let router = Router()
            router.get("/metrics") { _, _ in metricsText() }
            services.append(Application(router: router, configuration: .init(address: .hostname(metricsHost, port: metricsPort)), logger: logger))
        }
        let group = ServiceGroup(services: services, gracefulShutdownSignals: [.sigterm, .sigint], logger: logger)
        try await group.run()
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
