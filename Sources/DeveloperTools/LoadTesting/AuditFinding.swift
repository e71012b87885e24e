/// One thing the audit found wrong, naming the identity (or device) and the numbers.
public struct AuditFinding: Sendable, Equatable, CustomStringConvertible {
    /// The rule a finding breaks.
    public enum Rule: String, Sendable, CaseIterable {
        /// Admitted units never exceed the daily limit, and a refusal means the request did not fit.
        case dailyQuota = "daily quota"
        /// Admitted unfinished jobs never exceed the cap, and a refusal means the cap was reached.
        case runningCap = "running cap"
        /// One admission per device per cooldown window, and a refusal means one had just been admitted.
        case cooldown = "device cooldown"
        /// Every request is answered with an admission or one of admission's refusals.
        case answers = "answers"
        /// Every planned request has exactly one decision.
        case completeness = "completeness"
    }

    public let rule: Rule
    public let message: String

    public init(_ rule: Rule, _ message: String) {
        self.rule = rule
        self.message = message
    }

    public var description: String { "\(rule.rawValue): \(message)" }
}
