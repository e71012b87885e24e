import ArgumentParser
import BuildInfo
import Foundation
import KilnAPI
import KilnAssembly
import KilnCommandLine
import KilnHandlers
import KilnIdentity
import KilnPolicy
import KilnPrivacy
import KilnQueue
import KilnStore
import Logging
import PostgresClient
import ServiceLifecycle
import UnixSignals

struct APICommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "api", abstract: "Serve the HTTP API.")

    @OptionGroup var connections: ConnectionOptions

    @Option(help: "Address to bind.")
    var host = "127.0.0.1"

    @Option(help: "Port to listen on (env KILN_API_PORT).")
    var port: Int = Int(ProcessInfo.processInfo.environment["KILN_API_PORT"] ?? "") ?? 8787

    @Option(help: "Most event streams the node serves at once; past it, 503 with Retry-After.")
    var maxFollowers = APIConfiguration.FollowerLimits().perNode

    @Option(help: "Most event streams the node serves at once to one tenant; past it, 429 with Retry-After.")
    var maxFollowersPerTenant = APIConfiguration.FollowerLimits().perTenant

    @Option(help: "Most event streams the node serves at once to one identity; past it, 429 with Retry-After.")
    var maxFollowersPerIdentity = APIConfiguration.FollowerLimits().perIdentity

    @OptionGroup var policyOptions: PolicyOptions

    func validate() throws {
        guard maxFollowers > 0, maxFollowersPerTenant > 0, maxFollowersPerIdentity > 0 else {
            throw ValidationError("--max-followers, --max-followers-per-tenant and --max-followers-per-identity must be positive")
        }
    }

    func run() async throws {
        // The node's tasks run on the event loops that serve HTTP and hold its Redis connections, each staying on the
        // loop it is on: a request is read, sent to Redis, answered and written on one thread, with no hand-off to
        // Swift's cooperative pool and back at each step. Kiln runs blocking work on threads of its own
        // (`BlockingExecutor`), never in a task, so no task holds a loop.
        EventLoopExecutor.install()
        let policySet = try policyOptions.load()
        let identities: IdentityVerifierSet
        do {
            // Relative paths in the file (root certificates, key sets) are relative to the file itself.
            identities = try IdentityVerifierSet.load(
                policies: policySet, directory: URL(fileURLWithPath: policyOptions.policies).deletingLastPathComponent(),
                environment: ProcessInfo.processInfo.environment)
        } catch let error as PolicyError {
            // A root, key set or secret the file names that is missing or unusable stops the node at start, as a
            // wrong file does.
            throw ValidationError("\(policyOptions.policies): \(error)")
        }
        let logger = Bootstrap.logger("kiln.api")
        let descriptors = Bootstrap.raiseDescriptorLimit()
        if descriptors < maxFollowers + 1024 {
            logger.warning(
                "the descriptor limit is below the followers the node may serve; raise LimitNOFILE or the container's ulimit",
                metadata: ["limit": "\(descriptors)", "max_followers": "\(maxFollowers)"])
        }
        let metricsText = Bootstrap.metrics()
        let runtime = try Runtime(connections)
        // Listening only once both answer is how the node says it is ready.
        try await runtime.waitForServices(logger: logger)
        var configuration = APIConfiguration()
        configuration.host = host
        configuration.port = port
        configuration.version = KilnBuild.version
        configuration.commit = KilnBuild.commit
        configuration.followers.perNode = maxFollowers
        configuration.followers.perTenant = maxFollowersPerTenant
        configuration.followers.perIdentity = maxFollowersPerIdentity
        let dependencies = runtime.assembly.apiDependencies(policies: policySet, identities: identities, metricsText: metricsText)
        let app = APIServer.application(dependencies: dependencies, configuration: configuration, logger: logger)
        // Listed last, the announcement is the first service a graceful shutdown reaches: it says so before the node
        // stops taking connections and waits for the answers it is writing.
        let draining = ClosingService { logger.info("api draining") }
        let group = ServiceGroup(services: runtime.services + [app, draining], gracefulShutdownSignals: [.sigterm, .sigint], logger: logger)
        try await group.run()
        logger.info("api stopped")
    }
}
