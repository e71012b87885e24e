import Foundation
import HTTPTypes
import Hummingbird
import KilnCore
import KilnPolicy
import KilnQueue
import KilnStore

/// `/v1/webhooks/{revenuecat,adapty}/{tenant}`: subscription platforms report purchases, renewals, refunds and
/// expiries; each event is applied once and forgets the cached standings it changes, so the next submission sees it.
/// The platform sends the tenant's webhook secret (`kiln webhook create`) as its `Authorization` header.
struct WebhookRoutes<Context: RequestContext> {
    let dependencies: APIDependencies

    /// Webhook bodies are small; anything bigger is not one.
    private var maxBodyBytes: Int { 256 * 1024 }

    func register(on router: Router<Context>) {
        router.post("/v1/webhooks/revenuecat/{tenant}", use: revenueCat)
        router.post("/v1/webhooks/adapty/{tenant}", use: adapty)
    }

    @Sendable func revenueCat(_ request: Request, context: Context) async throws -> Response {
        let (tenant, policy, body) = try await authenticated(request, context, source: .revenueCat)
        let webhook = try decode(RevenueCatWebhook.self, body)
        return try await apply(webhook.entitlement(tenant: tenant, policy: policy), eventID: webhook.event.id)
    }

    @Sendable func adapty(_ request: Request, context: Context) async throws -> Response {
        let (tenant, policy, body) = try await authenticated(request, context, source: .adapty)
        let webhook = try decode(AdaptyWebhook.self, body)
        return try await apply(webhook.entitlement(tenant: tenant, policy: policy), eventID: webhook.eventID)
    }

    private func authenticated(
        _ request: Request, _ context: Context, source: Entitlement.Source
    ) async throws -> (TenantID, TenantPolicy, [UInt8]) {
        guard let tenant = context.parameters.get("tenant").flatMap(TenantID.init(validating:)), let policy = dependencies.policies[tenant]
        else { throw Problem(.notFound, "tenant_not_found", "no metered tenant of this id") }
        let header = request.headers[.authorization] ?? ""
        let secret = header.hasPrefix("Bearer ") ? String(header.dropFirst("Bearer ".count)) : header
        guard !secret.isEmpty, try await dependencies.webhookSecrets.authenticate(tenant: tenant, source: source, secret: secret) else {
            throw Problem(.unauthorized, "invalid_webhook_secret", "send the tenant's webhook secret in the Authorization header")
        }
        var request = request
        return (tenant, policy, Array(buffer: try await request.collectBody(upTo: maxBodyBytes)))
    }

    private func decode<Webhook: Decodable>(_ type: Webhook.Type, _ body: [UInt8]) throws -> Webhook {
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        do {
            return try decoder.decode(type, from: Data(body))
        } catch {
            throw Problem(.badRequest, "invalid_webhook", "not a webhook event Kiln can read")
        }
    }

    private func apply(_ entitlement: Entitlement?, eventID: String) async throws -> Response {
        guard let entitlement else { return .json(.object(["status": .string("ignored")]), status: .ok) }
        guard try await dependencies.entitlements.apply(entitlement, eventID: eventID) else { return .json(.object(["status": .string("duplicate")]), status: .ok) }
        // A partner draws on the same entitlement: its cached standing changes too.
        let partner = try await dependencies.partners.partner(tenant: entitlement.tenant, identity: entitlement.identity)?.partner
        try await dependencies.queue.forgetStandings(tenant: entitlement.tenant, identities: [entitlement.identity] + (partner.map { [$0] } ?? []))
        return .json(.object(["status": .string("applied"), "tier": .string(entitlement.tier)]), status: .ok)
    }
}
