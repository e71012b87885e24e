import KilnPolicy

/// A tier of a scenario, with what each kind the scenario sends costs there, from the tenant's policy.
struct PricedTier: Sendable {
    let name: String
    let kinds: [PricedKind]
}

/// A kind with its cost and quota class for one tier.
struct PricedKind: Sendable {
    let name: String
    let quotaClass: QuotaClass
    let cost: Int
}
