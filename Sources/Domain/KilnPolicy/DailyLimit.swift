import KilnJSON

/// How many units of one quota class an identity may use in one quota day.
public enum DailyLimit: Sendable, Hashable {
    case units(Int)
    /// No daily limit; the running-job cap, cooldowns and abuse thresholds still apply.
    case unlimited
}

extension DailyLimit {
    /// The number of units; nil when unlimited.
    public var units: Int? {
        switch self {
        case .units(let units): units
        case .unlimited: nil
        }
    }

    /// A whole number of units, or `"unlimited"`.
    init(parsing field: PolicyField) throws(PolicyError) {
        if case .string("unlimited") = field.value {
            self = .unlimited
        } else {
            self = .units(try field.wholeNumber(atLeast: 0, alternative: "\"unlimited\""))
        }
    }
}
