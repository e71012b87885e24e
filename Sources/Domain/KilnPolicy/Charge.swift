/// What one job of a kind takes from an identity's quota day, given the identity's tier.
public enum Charge: Sendable, Hashable {
    /// The job reserves `units` of the tier's daily limit of the class.
    case units(Int, of: QuotaClass)
    /// The tenant offers the kind, but not to this tier (ChatTale's `chat.generate` to free identities).
    case excludedFromTier
    /// The tenant does not offer the kind.
    case notOffered
}
