import ArgumentParser
import KilnCommandLine
import KilnCore
import KilnStore

struct WebhookCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "webhook", abstract: "Secrets of the subscription platforms' webhooks.", subcommands: [Create.self])

    struct Create: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Issue a secret for a tenant's RevenueCat or Adapty webhook; shown once. Paste it as the webhook's Authorization header.")
        @OptionGroup var connections: ConnectionOptions
        @Argument(help: "Tenant id.") var tenant: String
        @Argument(help: "revenuecat or adapty.") var source: String

        func run() async throws {
            guard let tenantID = TenantID(validating: tenant) else { throw ValidationError("\(tenant) is not a tenant id") }
            guard let platform = Entitlement.Source(rawValue: source), platform != .appStore else {
                throw ValidationError("the source is revenuecat or adapty")
            }
            let secret = try await Runtime.with(connections) {
                try await WebhookSecretStore(pool: $0.database).create(tenant: tenantID, source: platform)
            }
            print(secret)
            print("webhook URL: <api>/v1/webhooks/\(platform.rawValue)/\(tenantID)")
        }
    }
}
