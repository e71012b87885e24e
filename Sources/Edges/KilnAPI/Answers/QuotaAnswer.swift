import Foundation
import KilnPolicy
import KilnQueue

/// `GET /v1/quota`: the caller's tier, each quota class's use today and when the day resets (the `Quota` schema).
struct QuotaAnswer: Encodable {
    /// One class's limit and use (the `QuotaClassUse` schema); an unlimited class has `null` limit and remaining.
    struct ClassUse: Encodable {
        let usage: QuotaUsage

        enum CodingKeys: String, CodingKey {
            case limit, used, pending, remaining
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(usage.limit, forKey: .limit)
            try container.encode(usage.used, forKey: .used)
            try container.encode(usage.pending, forKey: .pending)
            try container.encode(usage.remaining, forKey: .remaining)
        }
    }

    /// The identity's jobs that hold a reservation, and how many its tier allows at once.
    struct UnfinishedJobs: Encodable {
        let count: Int
        let cap: Int
    }

    let tier: String
    /// `yyyyMMdd` in the tenant's reset time zone.
    let day: String
    let resetAt: String
    let unfinishedJobs: UnfinishedJobs
    let classes: [String: ClassUse]

    init(tier: Tier, day: QuotaDay, usage: [String: QuotaUsage], unfinished: Int) {
        self.tier = tier.name
        self.day = day.label
        resetAt = day.resetAtText
        unfinishedJobs = UnfinishedJobs(count: unfinished, cap: tier.runningJobCap)
        classes = usage.mapValues(ClassUse.init)
    }

    enum CodingKeys: String, CodingKey {
        case tier, day, classes
        case resetAt = "reset_at"
        case unfinishedJobs = "unfinished_jobs"
    }
}
