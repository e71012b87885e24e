import Foundation
import Hummingbird
import KilnAdmission
import KilnCore
import KilnPolicy
import KilnQueue
import KilnStore

/// `GET /v1/quota`: the caller's tier, each quota class's limit and use today, and when the day resets.
struct QuotaRoutes<Context: CallerRequestContext> {
    let dependencies: APIDependencies

    /// - Parameter v1: the authenticated `/v1` group.
    func register(on v1: some RouterMethods<Context>) {
        v1.get("quota", use: show)
    }

    @Sendable func show(_ request: Request, context: Context) async throws -> Response {
        let caller = try context.requireCaller()
        guard let policy = dependencies.policies[caller.tenant.id] else {
            throw Problem(.notFound, "not_metered", "this tenant has no quota policy: its jobs are not metered")
        }
        let now = dependencies.clock()
        let standing = try await dependencies.standingLookup.standing(of: caller.applicant, at: now)
        let tier = Admission(policies: dependencies.policies).tier(of: caller.applicant, standing: standing, in: policy, at: now)
        let day = policy.dayWindow(containing: now)
        let limits = Dictionary(uniqueKeysWithValues: tier.daily.map { ($0.key.rawValue, $0.value.units) })
        let (usage, unfinished) = try await dependencies.quota.usage(
            tenant: caller.tenant.id, subject: standing?.subject ?? caller.identity.rawValue, day: day.label, limits: limits)
        return try .json(QuotaAnswer(tier: tier, day: day, usage: usage, unfinished: unfinished), status: .ok)
    }
}
