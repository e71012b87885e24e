import UnixSignals
import KilnQueue
import ArgumentParser
import Foundation
import KilnCore
import KilnStore
import KilnWorker
import ServiceLifecycle

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

    func run() async throws {
        let logger = Bootstrap.logger("kiln.worker")
        _ = Bootstrap.metrics()
        let runtime = try Runtime(connections)
        try await runtime.queue.prepare()
        var configuration = WorkerConfiguration()
        configuration.concurrency = [.io: io, .cpu: cpu]
        configuration.claimBatch = claimBatch
        configuration.shutdownGrace = .milliseconds(Int64(shutdownGrace * 1000))
        let worker = Worker(
            queue: runtime.queue, jobs: JobStore(pool: runtime.database),
            artifacts: ArtifactStore(pool: runtime.database, objects: runtime.objects), handlers: .diagnostics,
            configuration: configuration, logger: logger)
        let group = ServiceGroup(services: [worker], gracefulShutdownSignals: [.sigterm, .sigint], logger: logger)
        try await group.run()
        try await runtime.close()
    }
}
