import Foundation
import HTTPTypes
import KilnAdmission
import KilnCore
import KilnPolicy
import KilnQueue

extension Problem {
    /// Admission's refusals before Redis, as the app reads them.
    init(_ refusal: AdmissionRefusal) {
        switch refusal {
        case .upgradeRequired(let tier, let field, let reason):
            self.init(.forbidden, "upgrade_required", reason)
            self.field = field
            self.tier = tier.name
            upgradeAvailable = true
        case .kindNotOffered(let kind):
            self.init(.badRequest, "kind_not_offered", "this tenant does not offer \(kind)")
        case .unknownTier(let name):
            self.init(.badRequest, "unknown_tier", "Kiln-Tier names no tier of this tenant: \(name)")
        }
    }
}

/// How admission's decisions read to an app: every refusal of a submission in one place (``Problem/init(_:)`` for
/// those before Redis, ``denial(_:charge:upgradeAvailable:now:)`` for the counters' 429 with everything needed to
/// explain it to the user), and the remaining quota on every accepted submission.
enum QuotaAnswers {
    static func denial(_ denial: QuotaDenial, charge: QuotaCharge, upgradeAvailable: Bool, now: Date) -> Problem {
        let detail =
            switch denial.reason {
            case .dailyQuotaExhausted: "the daily \(charge.quotaClass.rawValue) limit of the \(charge.tier.name) tier is used up"
            case .concurrencyLimit: "too many unfinished jobs; try again when one ends"
            case .deviceCooldown: "this device must wait before its next \(charge.quotaClass.rawValue) job"
            case .temporarilyBlocked: "temporarily blocked: \(denial.blockReason ?? "abuse detection")"
            case .rateLimited: "too many submissions in a short time; slow down"
            }
        let wait =
            denial.reason == .dailyQuotaExhausted ? .milliseconds(Int64(charge.day.end.timeIntervalSince(now) * 1000)) : denial.retryAfter
        // Whole seconds, rounded up, and at least one: a client that waits that long may succeed.
        let seconds = max(1, (wait.milliseconds + 999) / 1000)
        var problem = Problem(.tooManyRequests, denial.reason.rawValue, detail)
        // What an app shows: limit, used, pending, remaining (null when unlimited), reset time and tier.
        problem.tier = charge.tier.name
        problem.upgradeAvailable = upgradeAvailable
        problem.quota = QuotaDenialMembers(
            quotaClass: charge.quotaClass.rawValue, limit: denial.usage.limit, used: denial.usage.used, pending: denial.usage.pending,
            remaining: denial.usage.remaining, resetAt: charge.day.resetAtText, reason: denial.reason.rawValue, retryAfterSeconds: Int(seconds),
            blockReason: denial.blockReason)
        problem.headers[.retryAfter] = String(seconds)
        return problem
    }

    /// `Kiln-Quota-*` headers of an accepted submission.
    static func headers(_ usage: QuotaUsage, _ charge: QuotaCharge) -> HTTPFields {
        var headers = HTTPFields()
        headers[.kilnQuotaClass] = charge.quotaClass.rawValue
        headers[.kilnQuotaLimit] = usage.limit.map(String.init) ?? "unlimited"
        headers[.kilnQuotaRemaining] = usage.remaining.map(String.init) ?? "unlimited"
        headers[.kilnQuotaReset] = charge.day.resetAtText
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
