import Foundation
import HTTPTypes
import KilnCore
import KilnQueue

/// How admission's decisions read to an app: a 429 with everything needed to explain it to the user, and the
/// remaining quota on every accepted submission.
enum QuotaAnswers {
    static func resetAt(_ charge: QuotaCharge) -> String {
        charge.resetAt.formatted(Date.ISO8601FormatStyle())
    }

    /// The members an app shows: limit, used, pending, remaining (null when unlimited), reset time and tier.
    static func members(_ usage: QuotaUsage, _ charge: QuotaCharge) -> [String: JSONValue] {
        [
            "quota_class": .string(charge.quotaClass), "tier": .string(charge.tier),
            "limit": usage.limit.map { .number(Double($0)) } ?? .null, "used": .number(Double(usage.used)),
            "pending": .number(Double(usage.pending)), "remaining": usage.remaining.map { .number(Double($0)) } ?? .null,
            "reset_at": .string(resetAt(charge)),
        ]
    }

    static func denial(_ denial: QuotaDenial, charge: QuotaCharge, upgradeAvailable: Bool, now: Date) -> Problem {
        let detail =
            switch denial.reason {
            case .dailyQuotaExhausted: "the daily \(charge.quotaClass) limit of the \(charge.tier) tier is used up"
            case .concurrencyLimit: "too many unfinished jobs; try again when one ends"
            case .deviceCooldown: "this device must wait before its next \(charge.quotaClass) job"
            case .temporarilyBlocked: "temporarily blocked: \(denial.blockReason ?? "abuse detection")"
            case .rateLimited: "too many submissions in a short time; slow down"
            }
        let wait =
            denial.reason == .dailyQuotaExhausted ? .milliseconds(Int64(charge.resetAt.timeIntervalSince(now) * 1000)) : denial.retryAfter
        // Whole seconds, rounded up, and at least one: a client that waits that long may succeed.
        let seconds = max(1, (wait.milliseconds + 999) / 1000)
        var problem = Problem(.tooManyRequests, denial.reason.rawValue, detail)
        problem.extra = members(denial.usage, charge)
        problem.extra["reason"] = .string(denial.reason.rawValue)
        problem.extra["retry_after_s"] = .number(Double(seconds))
        problem.extra["upgrade_available"] = .bool(upgradeAvailable)
        if let blockReason = denial.blockReason { problem.extra["block_reason"] = .string(blockReason) }
        problem.headers[.retryAfter] = String(seconds)
        return problem
    }

    /// `Kiln-Quota-*` headers of an accepted submission.
    static func headers(_ usage: QuotaUsage, _ charge: QuotaCharge) -> HTTPFields {
        var headers = HTTPFields()
        headers[.kilnQuotaClass] = charge.quotaClass
        headers[.kilnQuotaLimit] = usage.limit.map(String.init) ?? "unlimited"
        headers[.kilnQuotaRemaining] = usage.remaining.map(String.init) ?? "unlimited"
        headers[.kilnQuotaReset] = resetAt(charge)
        return headers
    }
}

extension HTTPField.Name {
    // The literals are valid field names, so the initialisers cannot fail.
    static let kilnQuotaClass = HTTPField.Name("Kiln-Quota-Class")!
    static let kilnQuotaLimit = HTTPField.Name("Kiln-Quota-Limit")!
    static let kilnQuotaRemaining = HTTPField.Name("Kiln-Quota-Remaining")!
    static let kilnQuotaReset = HTTPField.Name("Kiln-Quota-Reset")!
}
