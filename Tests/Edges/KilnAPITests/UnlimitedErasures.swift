import KilnAPI
import KilnCore

/// Erasure limits that never refuse: the routes' own behaviour, apart from how often they may be asked
/// (`PrivacyTests` holds the real limits to theirs, in Redis).
struct UnlimitedErasures: ErasureAdmission {
    func admit(identity: Identity, tenant: TenantID, perTenantPerMinute: Int) async throws -> Duration? { nil }
    func completed(identity: Identity, tenant: TenantID, quiet: Duration) async throws {}
}
