import Foundation
public import KilnCore
public import Logging
public import PostgresClient

/// The secrets subscription platforms (RevenueCat, Adapty) send in their webhooks' `Authorization` header: issued
/// once in plaintext, stored as SHA-256 hashes, like API keys.
public struct WebhookSecretStore: Sendable {
    private let pool: PostgresPool
    private let logger: Logger

    public init(pool: PostgresPool, logger: Logger? = nil) {
        self.pool = pool
        self.logger = logger ?? .disabled
    }

    /// Issues a secret for `tenant`'s webhooks from `source` (`revenuecat` or `adapty`); the plaintext is returned
    /// this once. Throws ``StoreError/Code/notFound`` when the tenant does not exist.
    public func create(tenant: TenantID, source: Entitlement.Source) async throws -> String {
        guard source != .appStore else { throw StoreError(.invalidArgument, "App Store notifications are signed; they need no secret") }
        let secret = "whsec_" + APIKey.generate()
        do {
            _ = try await pool.execute(
                "INSERT INTO webhook_secrets (id, tenant_id, source, secret_hash) VALUES ($1, $2, $3, $4)",
                [UUID(), tenant.rawValue, source.rawValue, APIKey.hash(secret)])
        } catch let error as PostgresError where error.isForeignKeyViolation {
            throw StoreError(.notFound, "tenant \(tenant) does not exist")
        }
        logger.info("webhook secret created", metadata: ["tenant.id": "\(tenant)", "webhook.source": "\(source.rawValue)"])
        return secret
    }

    /// Whether `secret` is an active secret of `tenant` for `source`.
    public func authenticate(tenant: TenantID, source: Entitlement.Source, secret: String) async throws -> Bool {
        try await pool.query(
            "SELECT 1 FROM webhook_secrets WHERE tenant_id = $1 AND source = $2 AND secret_hash = $3 AND revoked_at IS NULL",
            [tenant.rawValue, source.rawValue, APIKey.hash(secret)]
        ).first != nil
    }
}
