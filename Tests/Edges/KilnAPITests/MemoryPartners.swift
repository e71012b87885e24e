import Foundation
import KilnAPI
import KilnCore
import Locking

/// Partner links in memory: invitations by code, redeemed by another identity, accepted by their inviter; an unlink
/// bars both from linking again (the cooldown, however long, has not passed in a unit test).
final class MemoryPartners: PartnerLinks {
    private struct Invitation {
        let inviter: Identity
        var redeemer: Identity?
    }

    private struct State {
        var invitations: [String: Invitation] = [:]
        var links: [Identity: (partner: Identity, linkedAt: Date)] = [:]
        var unlinked: Set<Identity> = []
    }

    private let state = Locked(State())
    let now: Date

    init(now: Date) {
        self.now = now
    }

    func invite(tenant: TenantID, inviter: Identity, lifetime: Duration) async throws -> (code: String, expiresAt: Date) {
        let code = "code-\(inviter)"
        state.withLock { $0.invitations[code] = Invitation(inviter: inviter) }
        return (code, now.addingTimeInterval(TimeInterval(lifetime.components.seconds)))
    }

    func redeem(tenant: TenantID, code: String, redeemer: Identity) async throws -> Bool {
        state.withLock { state in
            guard let invitation = state.invitations[code], invitation.inviter != redeemer, invitation.redeemer == nil else { return false }
            state.invitations[code]?.redeemer = redeemer
            return true
        }
    }

    func accept(tenant: TenantID, code: String, inviter: Identity, unlinkCooldown: Duration) async throws -> PartnerAcceptance {
        state.withLock { state in
            guard let invitation = state.invitations[code], invitation.inviter == inviter, let partner = invitation.redeemer else {
                return .notRedeemed
            }
            let pair = [inviter, partner]
            guard pair.allSatisfy({ state.links[$0] == nil && !state.unlinked.contains($0) }) else { return .refused }
            state.invitations[code] = nil
            state.links[inviter] = (partner, now)
            state.links[partner] = (inviter, now)
            return .linked(partner: partner)
        }
    }

    func unlink(tenant: TenantID, identity: Identity) async throws -> Identity? {
        state.withLock { state in
            guard let partner = state.links.removeValue(forKey: identity)?.partner else { return nil }
            state.links[partner] = nil
            state.unlinked.formUnion([identity, partner])
            return partner
        }
    }

    func partner(tenant: TenantID, identity: Identity) async throws -> (partner: Identity, linkedAt: Date)? {
        state.withLock { $0.links[identity] }
    }
}
