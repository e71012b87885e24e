import KilnAPI
import KilnCore
import KilnPolicy
import KilnQueue
import Locking

/// Quota counters in memory: what the memory queue reserved for each subject, class and day, read as `GET /v1/quota`
/// reads Redis's. It checks only the daily limit; the running cap, cooldowns, blocks and velocity are `enqueue.lua`'s,
/// tested against Redis in the integration tier.
final class MemoryQuota: QuotaCounters {
    private struct Day: Hashable {
        let tenant: TenantID
        let subject: String
        let day: String
    }

    private struct State {
        var pending: [Day: [String: Int]] = [:]
        var unfinishedJobs: [Day: Int] = [:]
    }

    private let state = Locked(State())

    /// Reserves the charge's units and answers the class's use with them; nil when the day's limit would be passed.
    func reserve(_ charge: QuotaCharge, tenant: TenantID) -> QuotaUsage? {
        let day = Day(tenant: tenant, subject: charge.subject, day: charge.day.label)
        return state.withLock { state in
            let reserved = state.pending[day]?[charge.quotaClass.rawValue] ?? 0
            if let limit = charge.limit, reserved + charge.cost > limit { return nil }
            state.pending[day, default: [:]][charge.quotaClass.rawValue] = reserved + charge.cost
            state.unfinishedJobs[day, default: 0] += 1
            return QuotaUsage(limit: charge.limit, used: 0, pending: reserved + charge.cost)
        }
    }

    func usage(
        tenant: TenantID, subject: String, day: String, limits: [String: Int?]
    ) async throws -> (usage: [String: QuotaUsage], unfinished: Int) {
        let day = Day(tenant: tenant, subject: subject, day: day)
        return state.withLock { state in
            let usage = Dictionary(
                uniqueKeysWithValues: limits.map { quotaClass, limit in
                    (quotaClass, QuotaUsage(limit: limit, used: 0, pending: state.pending[day]?[quotaClass] ?? 0))
                })
            return (usage, state.unfinishedJobs[day, default: 0])
        }
    }
}
