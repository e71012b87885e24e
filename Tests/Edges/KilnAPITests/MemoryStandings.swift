import KilnAdmission
import KilnCore
import Locking

/// The standing cache in memory: what admission cached, and which identities' standings the routes forgot.
final class MemoryStandings: StandingCaching {
    private struct State {
        var cached: [Identity: Standing] = [:]
        var forgotten: [Identity] = []
    }

    private let state = Locked(State())

    /// Every identity whose standing was forgotten, in order.
    var forgotten: [Identity] { state.withLock { $0.forgotten } }

    func cached(tenant: TenantID, identity: Identity) async throws -> Standing? {
        state.withLock { $0.cached[identity] }
    }

    func cache(_ standing: Standing, tenant: TenantID, identity: Identity, ttl: Duration) async throws {
        state.withLock { $0.cached[identity] = standing }
    }

    func forget(tenant: TenantID, identities: [Identity]) async throws {
        state.withLock { state in
            for identity in identities { state.cached[identity] = nil }
            state.forgotten += identities
        }
    }
}
