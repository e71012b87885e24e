import HTTPTypes
import KilnCore
import Locking
import Metrics

/// The event streams this node serves at once (`GET /v1/jobs/{id}/events`, MCP's `GET` streams), counted against
/// ``APIConfiguration/FollowerLimits``: past the node's limit a client is told to come back (`503`, another node may
/// have room), past its tenant's or its identity's it is told it follows too much (`429`); both with `Retry-After`.
final class FollowerCaps: Sendable {
    private struct Counts {
        var node = 0
        var tenants: [TenantID: Int] = [:]
        var identities: [String: Int] = [:]
    }

    private let limits: APIConfiguration.FollowerLimits
    private let counts = Locked(Counts())
    private let gauge = Gauge(label: "kiln_api_event_followers")

    init(_ limits: APIConfiguration.FollowerLimits) {
        self.limits = limits
    }

    /// Counts one more stream for the caller, or refuses it. The stream counts until its slot is gone.
    func admit(tenant: TenantID, identity: Identity) throws -> FollowerSlot {
        let who = Self.identityKey(tenant, identity)
        let followers = try counts.withLock { counts -> Int in
            guard counts.node < limits.perNode else {
                throw Self.refusal(.serviceUnavailable, "too_many_followers", "this node follows as many event streams as it may; try again")
            }
            guard counts.tenants[tenant, default: 0] < limits.perTenant else {
                throw Self.refusal(.tooManyRequests, "too_many_followers", "the tenant follows as many event streams at once as it may")
            }
            guard counts.identities[who, default: 0] < limits.perIdentity else {
                throw Self.refusal(.tooManyRequests, "too_many_followers", "this identity follows as many event streams at once as it may")
            }
            counts.node += 1
            counts.tenants[tenant, default: 0] += 1
            counts.identities[who, default: 0] += 1
            return counts.node
        }
        gauge.record(followers)
        return FollowerSlot { self.release(tenant: tenant, who: who) }
    }

    private func release(tenant: TenantID, who: String) {
        let followers = counts.withLock { counts in
            counts.node -= 1
            counts.tenants[tenant] = counts.tenants[tenant].flatMap { $0 > 1 ? $0 - 1 : nil }
            counts.identities[who] = counts.identities[who].flatMap { $0 > 1 ? $0 - 1 : nil }
            return counts.node
        }
        gauge.record(followers)
    }

    private static func identityKey(_ tenant: TenantID, _ identity: Identity) -> String {
        tenant.rawValue + "\n" + identity.rawValue
    }

    private static func refusal(_ status: HTTPResponse.Status, _ code: String, _ detail: String) -> Problem {
        var problem = Problem(status, code, detail)
        problem.headers[.retryAfter] = "5"
        return problem
    }
}

/// One stream's place in ``FollowerCaps``: given back when the last reference to it goes, so a response whose body
/// never ran gives it back too.
final class FollowerSlot: Sendable {
    private let release: @Sendable () -> Void

    init(release: @escaping @Sendable () -> Void) {
        self.release = release
    }

    deinit { release() }
}
