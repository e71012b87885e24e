/// How strictly a tenant's inputs and outputs are filtered, from the most tolerant to the strictest.
public enum SafetyStrictness: String, Sendable, Hashable, CaseIterable {
    /// Standard thresholds, except that fictional violence is expected (a game master's battles); graphic
    /// violence, self-harm and anything sexual involving minors stay strict.
    case fiction
    /// The provider's standard thresholds.
    case standard
    /// Stricter thresholds on sexual content, harassment and personal data: apps whose inputs are real people's
    /// photos or names.
    case strict
    /// The strictest thresholds, for content made for children; no photos of people.
    case child
}
