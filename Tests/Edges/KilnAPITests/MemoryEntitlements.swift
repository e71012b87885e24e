import Foundation
import KilnAPI
import KilnAdmission
import KilnCore
import Locking

/// Entitlements in memory: each event applied once, the latest entitlement of an identity its standing. Partners'
/// shared pools are `EntitlementStore`'s SQL, tested against PostgreSQL.
final class MemoryEntitlements: EntitlementRecords, EntitlementStandings {
    private struct State {
        var applied: Set<String> = []
        var entitlements: [String: Entitlement] = [:]
    }

    private let state = Locked(State())

    func apply(_ entitlement: Entitlement, eventID: String) async throws -> Bool {
        state.withLock { state in
            guard state.applied.insert(eventID).inserted else { return false }
            state.entitlements[entitlement.identity] = entitlement
            return true
        }
    }

    func standing(tenant: TenantID, identity: Identity, at now: Date) async throws -> Standing {
        let entitlement = state.withLock { $0.entitlements[identity.rawValue] }
        return Standing(subject: identity.rawValue, tier: entitlement?.tier, expiresAt: entitlement?.expiresAt)
    }
}
