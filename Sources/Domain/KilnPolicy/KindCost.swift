/// What one job of a kind costs, and which daily limit it counts against.
public struct KindCost: Sendable, Equatable {
    public let quotaClass: QuotaClass
    /// Units per job, at least 1.
    public let cost: Int
    /// Costs that differ from `cost` for some tiers, by tier name.
    public let costByTier: [String: Int]

    /// The units one job takes from an identity of the tier named `tierName`.
    public func cost(forTier tierName: String) -> Int {
        costByTier[tierName] ?? cost
    }
}

extension KindCost {
    /// `{"class": "image", "cost": 1, "cost_by_tier": {"pro": 2}}`; `tierNames` are the tiers the tenant defines.
    init(parsing field: PolicyField, tierNames: Set<String>) throws(PolicyError) {
        let object = try field.object(allowing: ["class", "cost", "cost_by_tier"])
        let quotaClass = try object.required("class").oneOf(QuotaClass.self)
        let cost = try object.required("cost").wholeNumber(atLeast: 1)
        var costByTier: [String: Int] = [:]
        for (tierName, tierCost) in try object.optional("cost_by_tier")?.entries() ?? [] {
            guard tierNames.contains(tierName) else { throw tierCost.failure("no tier \"\(tierName)\" is defined") }
            costByTier[tierName] = try tierCost.wholeNumber(atLeast: 1)
        }
        self.init(quotaClass: quotaClass, cost: cost, costByTier: costByTier)
    }
}
