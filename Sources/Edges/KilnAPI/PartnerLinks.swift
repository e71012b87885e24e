public import Foundation
public import KilnCore
public import KilnStore

/// Partner links as `/v1/partners` uses them, and the webhooks that forget a partner's standing. ``PartnerStore`` is
/// the real one; it keeps identities as PostgreSQL's text, turned into ``Identity`` values here.
public protocol PartnerLinks: Sendable {
    /// A new invitation code of `inviter`'s, open for `lifetime`.
    func invite(tenant: TenantID, inviter: Identity, lifetime: Duration) async throws -> (code: String, expiresAt: Date)
    /// The partner redeems the code; false when no open invitation of someone else's has it.
    func redeem(tenant: TenantID, code: String, redeemer: Identity) async throws -> Bool
    /// The inviter accepts whoever redeemed the code.
    func accept(tenant: TenantID, code: String, inviter: Identity, unlinkCooldown: Duration) async throws -> PartnerAcceptance
    /// Ends the identity's link; the former partner, or nil when it had none.
    func unlink(tenant: TenantID, identity: Identity) async throws -> Identity?
    /// The identity's partner and since when, or nil.
    func partner(tenant: TenantID, identity: Identity) async throws -> (partner: Identity, linkedAt: Date)?
}

/// What accepting a partner came to.
public enum PartnerAcceptance: Sendable, Equatable {
    case linked(partner: Identity)
    /// No invitation of the inviter's with this code was redeemed.
    case notRedeemed
    /// One of the two is linked already, or unlinked within the cooldown.
    case refused
}

extension PartnerStore: PartnerLinks {
    public func invite(tenant: TenantID, inviter: Identity, lifetime: Duration) async throws -> (code: String, expiresAt: Date) {
        try await invite(tenant: tenant, inviter: inviter.rawValue, lifetime: lifetime)
    }

    public func redeem(tenant: TenantID, code: String, redeemer: Identity) async throws -> Bool {
        do {
            try await redeem(tenant: tenant, code: code, redeemer: redeemer.rawValue)
            return true
        } catch let error as StoreError where error.code == .notFound {
            return false
        }
    }

    public func accept(tenant: TenantID, code: String, inviter: Identity, unlinkCooldown: Duration) async throws -> PartnerAcceptance {
        do {
            let partner = try await accept(tenant: tenant, code: code, inviter: inviter.rawValue, unlinkCooldown: unlinkCooldown)
            return .linked(partner: try Self.identity(partner))
        } catch let error as StoreError where error.code == .notFound {
            return .notRedeemed
        } catch let error as StoreError where error.code == .tooSoon {
            return .refused
        }
    }

    public func unlink(tenant: TenantID, identity: Identity) async throws -> Identity? {
        try await unlink(tenant: tenant, identity: identity.rawValue).map(Self.identity)
    }

    public func partner(tenant: TenantID, identity: Identity) async throws -> (partner: Identity, linkedAt: Date)? {
        guard let link = try await partner(tenant: tenant, identity: identity.rawValue) else { return nil }
        return (try Self.identity(link.partner), link.linkedAt)
    }

    /// A partner as PostgreSQL holds it: an identity when it was linked, so anything else is a damaged row.
    private static func identity(_ text: String) throws -> Identity {
        guard let identity = Identity(validating: text) else { throw DamagedPartnerRow() }
        return identity
    }

    private struct DamagedPartnerRow: Error {}
}
