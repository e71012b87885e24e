public import Foundation
public import KilnCore
public import KilnStore

/// Where an identity's standing comes from on a cache miss: its entitlements and partner link on record.
/// ``EntitlementStore`` is the real one.
public protocol EntitlementStandings: Sendable {
    /// The identity's quota subject and best active entitlement at `now`.
    func standing(tenant: TenantID, identity: Identity, at now: Date) async throws -> Standing
}

extension EntitlementStore: EntitlementStandings {
    public func standing(tenant: TenantID, identity: Identity, at now: Date) async throws -> Standing {
        // PostgreSQL keys entitlements by the identity's text.
        try await standing(tenant: tenant, identity: identity.rawValue, at: now)
    }
}
