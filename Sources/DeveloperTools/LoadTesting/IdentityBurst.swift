/// One identity's requests in one scenario and round, all sent at once: the race the audit checks the outcome of.
public struct IdentityBurst: Sendable {
    public let scenario: QuotaScenario
    public let identity: String
    let tier: PricedTier
    /// How many requests the identity sends.
    public let requests: Int

    public var tierName: String { tier.name }

    /// Request `index` of the burst: devices and kinds are taken in turn.
    public func request(_ index: Int) -> PlannedRequest {
        let kind = tier.kinds[index % tier.kinds.count]
        let devices = scenario.devices
        return PlannedRequest(
            scenario: scenario, identity: identity, device: "\(identity).\(devices[index % devices.count])", tier: tier.name, kind: kind.name,
            quotaClass: kind.quotaClass, cost: kind.cost)
    }
}
