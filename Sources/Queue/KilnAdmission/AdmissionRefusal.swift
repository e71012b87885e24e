public import KilnPolicy

/// Why admission turns a submission away before anything is written; the API answers each in one place
/// (`Problem+Admission.swift`). Refusals that need Redis's counters come back from the enqueue as `QuotaDenial`.
public enum AdmissionRefusal: Error, Sendable, Equatable {
    /// The kind, or what the input asks of it (`field`, with `reason`), is not part of the caller's tier.
    case upgradeRequired(tier: Tier, field: String?, reason: String)
    /// The tenant's policy does not price the kind.
    case kindNotOffered(kind: String)
    /// The tenant's server asserted a tier its policy does not have (refused where the name is read: the API's
    /// `Kiln-Tier` header).
    case unknownTier(name: String)
}
