import ArgumentParser
import Foundation
import Hummingbird
import KilnCore
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

    func run() async throws {
        let logger = Bootstrap.logger("kiln.worker")
        let metricsText = Bootstrap.metrics()
        let runtime = try Runtime(connections)
        try await runtime.queue.prepare()
        var configuration = WorkerConfiguration()
        configuration.concurrency = [.io: io, .cpu: cpu]
        configuration.claimBatch = claimBatch
        configuration.shutdownGrace = .milliseconds(Int64(shutdownGrace * 1000))
        let worker = Worker(
            queue: runtime.queue, jobs: JobStore(pool: runtime.database), ledger: QuotaLedger(pool: runtime.database),
            artifacts: ArtifactStore(pool: runtime.database, objects: runtime.objects), handlers: .diagnostics,
            configuration: configuration, logger: logger)
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
}
