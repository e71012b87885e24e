import ArgumentParser
import Foundation
import KilnAPI
import KilnCommandLine
import KilnCore
import KilnHandlers
import KilnIdentity
import KilnPolicy
import KilnPrivacy
import KilnQueue
import KilnStore
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

    @OptionGroup var policyOptions: PolicyOptions

    func run() async throws {
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
        let metricsText = Bootstrap.metrics()
        let runtime = try Runtime(connections, redisPoolSize: 32)
        try await runtime.namespace.prepare()
        var configuration = APIConfiguration()
        configuration.host = host
        configuration.port = port
        let database = runtime.database
        let dependencies = APIDependencies(
            redis: runtime.namespace, keys: APIKeyStore(pool: database), jobs: JobStore(pool: database),
            artifacts: ArtifactStore(pool: database, objects: runtime.objects),
            uploads: UploadStore(pool: database, objects: runtime.objects), shares: ShareStore(pool: database, objects: runtime.objects),
            entitlements: EntitlementStore(pool: database),
            partners: PartnerStore(pool: database), webhookSecrets: WebhookSecretStore(pool: database),
            eraser: IdentityEraser(namespace: runtime.namespace, records: IdentityRecords(pool: database, objects: runtime.objects)), catalog: KindDefinition.catalog,
            policies: policySet,
            identities: identities,
            checkDatabase: { _ = try await database.execute("SELECT 1") }, metricsText: metricsText)
        let app = APIServer.application(dependencies: dependencies, configuration: configuration, logger: logger)
        let group = ServiceGroup(services: [app], gracefulShutdownSignals: [.sigterm, .sigint], logger: logger)
        try await group.run()
        try await runtime.close()
    }
}
