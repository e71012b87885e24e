import Foundation
import HTTPTypes
import Hummingbird
import KilnAdmission
import KilnCore
import KilnIdentity
import KilnJSON
import KilnPolicy

/// `/v1/webhooks/{app-store,revenuecat,adapty}/{tenant}`: the App Store and subscription platforms report purchases,
/// renewals, refunds and expiries; each event is applied once and forgets the cached standings it changes, so the
/// next submission sees it. App Store notifications are signed by Apple and verified like transactions; the platforms
/// send the tenant's webhook secret (`kiln webhook create`) as their `Authorization` header.
struct WebhookRoutes<Context: RequestContext> {
    let dependencies: APIDependencies

    /// Webhook bodies are small; anything bigger is not one.
    private var maxBodyBytes: Int { 256 * 1024 }

    /// - Parameter v1: the `/v1` group, without the tenant's API key: each platform authenticates as its own.
    func register(on v1: some RouterMethods<Context>) {
        v1.post("webhooks/app-store/{tenant}", use: appStore)
        v1.post("webhooks/revenuecat/{tenant}", use: revenueCat)
        v1.post("webhooks/adapty/{tenant}", use: adapty)
    }

    /// An App Store Server Notification V2: `{"signedPayload": "<JWS>"}`, deduplicated by its `notificationUUID`.
    ///
    /// A path that names no tenant with App Store settings is answered as a forgery is: the payload is checked against
    /// no root, so whatever an outsider can sign is refused with the code a real tenant's check gives it, and the
    /// answer does not tell which tenants exist.
    @Sendable func appStore(_ request: Request, context: Context) async throws -> Response {
        var request = request
        let body = try decode(SignedNotification.self, Array(buffer: try await request.collectBody(within: maxBodyBytes)))
        let now = dependencies.clock()
        let tenant = context.parameters.get("tenant").flatMap(TenantID.init(validating:))
        let policy = tenant.flatMap { dependencies.policies[$0] }
        let verifier = tenant.flatMap { dependencies.identities[$0] }?.appStore
        let notification: AppStoreNotification
        do {
            notification = try await (verifier ?? NoTenant.verifier).verifyNotification(body.signedPayload, now: now)
        } catch let error as IdentityError {
            throw Problem(.unauthorized, error.code, error.message)
        }
        guard let tenant, let policy, verifier != nil else { throw NoTenant.untrusted }
        return try await apply(notification.entitlement(tenant: tenant, policy: policy, now: now), eventID: notification.uuid)
    }

    @Sendable func revenueCat(_ request: Request, context: Context) async throws -> Response {
        let (tenant, policy, body) = try await authenticated(request, context, source: .revenueCat)
        let webhook = try decode(RevenueCatWebhook.self, body)
        if let defect = webhook.defect { throw Problem(.badRequest, "invalid_webhook", defect) }
        return try await apply(webhook.entitlement(tenant: tenant, policy: policy), eventID: webhook.event.id)
    }

    @Sendable func adapty(_ request: Request, context: Context) async throws -> Response {
        let (tenant, policy, body) = try await authenticated(request, context, source: .adapty)
        let webhook = try decode(AdaptyWebhook.self, body)
        if let defect = webhook.defect { throw Problem(.badRequest, "invalid_webhook", defect) }
        return try await apply(webhook.entitlement(tenant: tenant, policy: policy), eventID: webhook.eventID)
    }

    /// The body of an App Store notification.
    private struct SignedNotification: Decodable {
        let signedPayload: String
    }

    /// The tenant of the path, once the request carries its webhook secret. The secret is checked first, and a path
    /// that names no tenant is refused as a wrong secret is: the answer does not tell which tenants exist.
    private func authenticated(
        _ request: Request, _ context: Context, source: Entitlement.Source
    ) async throws -> (TenantID, TenantPolicy, [UInt8]) {
        let header = request.headers[.authorization] ?? ""
        let secret = header.hasPrefix("Bearer ") ? String(header.dropFirst("Bearer ".count)) : header
        guard let tenant = context.parameters.get("tenant").flatMap(TenantID.init(validating:)), !secret.isEmpty,
            try await dependencies.webhookSecrets.authenticate(tenant: tenant, source: source, secret: secret)
        else {
            throw Problem(.unauthorized, "invalid_webhook_secret", "send the tenant's webhook secret in the Authorization header")
        }
        // Only the tenant itself, holding its secret, learns that it has no policy.
        guard let policy = dependencies.policies[tenant] else {
            throw Problem(.notFound, "tenant_not_found", "this tenant has no policy: its users are not metered")
        }
        var request = request
        return (tenant, policy, Array(buffer: try await request.collectBody(within: maxBodyBytes)))
    }

    private func decode<Webhook: Decodable>(_ type: Webhook.Type, _ body: [UInt8]) throws -> Webhook {
        // PostgreSQL cannot store U+0000: refused here, where the sender learns it, and not retried for ever on a 500.
        if let path = JSONValue.parse(String(decoding: body, as: UTF8.self))?.pathOfNUL(under: "body") {
            throw Problem(.badRequest, "invalid_webhook", "\(path) holds the character U+0000, which Kiln cannot store")
        }
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        do {
            return try decoder.decode(type, from: Data(body))
        } catch {
            throw Problem(.badRequest, "invalid_webhook", "not a webhook event Kiln can read")
        }
    }

    private func apply(_ entitlement: Entitlement?, eventID: String) async throws -> Response {
        guard let entitlement else { return try .json(WebhookAnswer.ignored, status: .ok) }
        guard try await dependencies.entitlements.apply(entitlement, eventID: eventID) else {
            return try .json(WebhookAnswer.duplicate, status: .ok)
        }
        // The platforms' user ids were checked as identities when the event was read (``RevenueCatWebhook/defect``,
        // ``AdaptyWebhook/defect``), and an App Store one is made from a transaction id.
        if let identity = Identity(validating: entitlement.identity) {
            // A partner draws on the same entitlement: its cached standing changes too.
            let partner = try await dependencies.partners.partner(tenant: entitlement.tenant, identity: identity)?.partner
            try await dependencies.standings.forget(tenant: entitlement.tenant, identities: [identity] + (partner.map { [$0] } ?? []))
        }
        return try .json(WebhookAnswer.applied(tier: entitlement.tier), status: .ok)
    }
}

/// How App Store notifications sent for no tenant with App Store settings are checked: against no root, so nothing
/// passes, and each is refused as a real tenant refuses a forgery.
private enum NoTenant {
    static let verifier = AppStoreVerifier(rootCertificates: [], bundleID: "", environment: .production)
    static let untrusted = Problem(.unauthorized, "untrusted_chain", "the certificates do not chain through one intermediate to a configured root")
}
