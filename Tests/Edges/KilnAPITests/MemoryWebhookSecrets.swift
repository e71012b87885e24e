import KilnAPI
import KilnCore

/// Each platform's webhook secret of each tenant.
struct MemoryWebhookSecrets: WebhookSecrets {
    let secrets: [TenantID: [Entitlement.Source: String]]

    func authenticate(tenant: TenantID, source: Entitlement.Source, secret: String) async throws -> Bool {
        secrets[tenant]?[source] == secret
    }
}
