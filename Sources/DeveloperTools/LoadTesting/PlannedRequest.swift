public import KilnPolicy

/// One submission the load test sends: who sends it, from which device, at which tier, and what the policy says it
/// costs.
public struct PlannedRequest: Sendable, Equatable {
    public let scenario: QuotaScenario
    public let identity: String
    public let device: String
    public let tier: String
    public let kind: String
    public let quotaClass: QuotaClass
    public let cost: Int

    public init(scenario: QuotaScenario, identity: String, device: String, tier: String, kind: String, quotaClass: QuotaClass, cost: Int) {
        self.scenario = scenario
        self.identity = identity
        self.device = device
        self.tier = tier
        self.kind = kind
        self.quotaClass = quotaClass
        self.cost = cost
    }
}
