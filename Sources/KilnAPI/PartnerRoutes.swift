import Foundation
import HTTPTypes
import Hummingbird
import KilnCore
import KilnPolicy
import KilnQueue
import KilnStore

/// `/v1/partners`: two identities link as partners (Veramo) and share one entitlement and one quota pool. The
/// inviter creates a code and shares it, the partner redeems it, the inviter accepts; either may unlink, after which
/// neither may link again for the tenant's cooldown.
struct PartnerRoutes<Context: RequestContext> {
    let dependencies: APIDependencies
    let authenticator: Authenticator

    /// How long an invitation code may wait to be redeemed and accepted.
    private var invitationLifetime: Duration { .seconds(900) }

    func register(on router: Router<Context>) {
        router.post("/v1/partners/invitations", use: invite)
        router.post("/v1/partners/invitations/{code}/redeem", use: redeem)
        router.post("/v1/partners/invitations/{code}/accept", use: accept)
        router.get("/v1/partners", use: show)
        router.delete("/v1/partners", use: unlink)
    }

    /// The caller, of a tenant that offers partner links, and the tenant's unlink cooldown.
    private func partnerCaller(_ request: Request) async throws -> (Caller, Duration) {
        let caller = try await authenticator.caller(of: request)
        guard let cooldown = dependencies.policies[caller.tenant.id]?.partnerUnlinkCooldown else {
            throw Problem(.notFound, "partners_not_offered", "this tenant offers no partner links")
        }
        return (caller, cooldown)
    }

    private func code(_ context: Context) -> String { context.parameters.get("code") ?? "" }

    @Sendable func invite(_ request: Request, context: Context) async throws -> Response {
        let (caller, _) = try await partnerCaller(request)
        let (code, expiresAt) = try await dependencies.partners.invite(
            tenant: caller.tenant.id, inviter: caller.identity.rawValue, lifetime: invitationLifetime)
        return .json(.object(["code": .string(code), "expires_at": .string(expiresAt.formatted(Date.ISO8601FormatStyle()))]), status: .created)
    }

    @Sendable func redeem(_ request: Request, context: Context) async throws -> Response {
        let (caller, _) = try await partnerCaller(request)
        do {
            try await dependencies.partners.redeem(tenant: caller.tenant.id, code: code(context), redeemer: caller.identity.rawValue)
        } catch let error as StoreError where error.code == .notFound {
            throw Problem(.notFound, "invitation_not_found", "no open invitation with this code (unknown, expired, used, or your own)")
        }
        return .json(.object(["status": .string("redeemed")]), status: .accepted)
    }

    @Sendable func accept(_ request: Request, context: Context) async throws -> Response {
        let (caller, cooldown) = try await partnerCaller(request)
        let partner: String
        do {
            partner = try await dependencies.partners.accept(
                tenant: caller.tenant.id, code: code(context), inviter: caller.identity.rawValue, unlinkCooldown: cooldown)
        } catch let error as StoreError where error.code == .notFound {
            throw Problem(.notFound, "invitation_not_found", "no invitation of yours with this code was redeemed")
        } catch let error as StoreError where error.code == .tooSoon {
            throw Problem(.conflict, "partner_link_refused", "one of you is linked already, or unlinked too recently")
        }
        try await dependencies.standings.forget(tenant: caller.tenant.id, identities: [caller.identity.rawValue, partner])
        return .json(.object(["partner": .string(partner)]), status: .created)
    }

    @Sendable func show(_ request: Request, context: Context) async throws -> Response {
        let (caller, _) = try await partnerCaller(request)
        guard let link = try await dependencies.partners.partner(tenant: caller.tenant.id, identity: caller.identity.rawValue) else {
            throw Problem(.notFound, "not_linked", "no partner")
        }
        return .json(
            .object(["partner": .string(link.partner), "linked_at": .string(link.linkedAt.formatted(Date.ISO8601FormatStyle()))]), status: .ok)
    }

    @Sendable func unlink(_ request: Request, context: Context) async throws -> Response {
        let (caller, _) = try await partnerCaller(request)
        guard let partner = try await dependencies.partners.unlink(tenant: caller.tenant.id, identity: caller.identity.rawValue) else {
            throw Problem(.notFound, "not_linked", "no partner")
        }
        try await dependencies.standings.forget(tenant: caller.tenant.id, identities: [caller.identity.rawValue, partner])
        return .json(.object(["unlinked": .string(partner)]), status: .ok)
    }
}
