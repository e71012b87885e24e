import Foundation
import HTTPTypes
import Hummingbird
import KilnAdmission
import KilnCore
import KilnPolicy
import KilnStore

/// `/v1/partners`: two identities link as partners (Veramo) and share one entitlement and one quota pool. The
/// inviter creates a code and shares it, the partner redeems it, the inviter accepts; either may unlink, after which
/// neither may link again for the tenant's cooldown.
struct PartnerRoutes<Context: CallerRequestContext> {
    let dependencies: APIDependencies

    /// How long an invitation code may wait to be redeemed and accepted.
    private var invitationLifetime: Duration { .seconds(900) }

    /// - Parameter v1: the authenticated `/v1` group.
    func register(on v1: some RouterMethods<Context>) {
        v1.post("partners/invitations", use: invite)
        v1.post("partners/invitations/{code}/redeem", use: redeem)
        v1.post("partners/invitations/{code}/accept", use: accept)
        v1.get("partners", use: show)
        v1.delete("partners", use: unlink)
    }

    /// The caller, of a tenant that offers partner links, and the tenant's unlink cooldown.
    private func partnerCaller(_ context: Context) throws -> (Caller, Duration) {
        let caller = try context.requireCaller()
        guard let cooldown = dependencies.policies[caller.tenant.id]?.partnerUnlinkCooldown else {
            throw Problem(.notFound, "partners_not_offered", "this tenant offers no partner links")
        }
        return (caller, cooldown)
    }

    private func code(_ context: Context) -> String { context.parameters.get("code") ?? "" }

    @Sendable func invite(_ request: Request, context: Context) async throws -> Response {
        let (caller, _) = try partnerCaller(context)
        let (code, expiresAt) = try await dependencies.partners.invite(
            tenant: caller.tenant.id, inviter: caller.identity, lifetime: invitationLifetime)
        return try .json(PartnerAnswers.Invitation(code: code, expiresAt: expiresAt), status: .created)
    }

    @Sendable func redeem(_ request: Request, context: Context) async throws -> Response {
        let (caller, _) = try partnerCaller(context)
        guard try await dependencies.partners.redeem(tenant: caller.tenant.id, code: code(context), redeemer: caller.identity) else {
            throw Problem(.notFound, "invitation_not_found", "no open invitation with this code (unknown, expired, used, or your own)")
        }
        return try .json(PartnerAnswers.Redemption(), status: .accepted)
    }

    @Sendable func accept(_ request: Request, context: Context) async throws -> Response {
        let (caller, cooldown) = try partnerCaller(context)
        let acceptance = try await dependencies.partners.accept(
            tenant: caller.tenant.id, code: code(context), inviter: caller.identity, unlinkCooldown: cooldown)
        switch acceptance {
        case .linked(let partner):
            try await dependencies.standings.forget(tenant: caller.tenant.id, identities: [caller.identity, partner])
            return try .json(PartnerAnswers.Accepted(partner: partner), status: .created)
        case .notRedeemed:
            throw Problem(.notFound, "invitation_not_found", "no invitation of yours with this code was redeemed")
        case .refused:
            throw Problem(.conflict, "partner_link_refused", "one of you is linked already, or unlinked too recently")
        }
    }

    @Sendable func show(_ request: Request, context: Context) async throws -> Response {
        let (caller, _) = try partnerCaller(context)
        guard let link = try await dependencies.partners.partner(tenant: caller.tenant.id, identity: caller.identity) else {
            throw Problem(.notFound, "not_linked", "no partner")
        }
        return try .json(PartnerAnswers.Link(partner: link.partner, linkedAt: link.linkedAt), status: .ok)
    }

    @Sendable func unlink(_ request: Request, context: Context) async throws -> Response {
        let (caller, _) = try partnerCaller(context)
        guard let partner = try await dependencies.partners.unlink(tenant: caller.tenant.id, identity: caller.identity) else {
            throw Problem(.notFound, "not_linked", "no partner")
        }
        try await dependencies.standings.forget(tenant: caller.tenant.id, identities: [caller.identity, partner])
        return try .json(PartnerAnswers.Unlinked(unlinked: partner), status: .ok)
    }
}
