public import KilnPolicy

/// Every request of a quota load run, in the order they go out: bursts (one identity's requests, released together)
/// grouped into waves (the requests one barrier releases across every generator process). Expanded a wave at a time, so
/// a million requests never sit in memory at once; every process expands the same plan from the same parameters.
public struct QuotaLoadPlan: Sendable {
    public let parameters: QuotaLoadParameters
    /// Each scenario's tiers, with what each of its kinds costs there.
    private let tiers: [QuotaScenario: [PricedTier]]

    /// Checks the parameters, and that the tenant's policy has every tier the scenarios use and prices every kind they
    /// send for it.
    public init(_ parameters: QuotaLoadParameters, policy: TenantPolicy) throws(LoadPlanError) {
        let counts = [
            ("identities", parameters.identities), ("requests per identity", parameters.requestsPerIdentity), ("rounds", parameters.rounds),
            ("processes", parameters.processes), ("connections", parameters.connections), ("wave size", parameters.waveSize),
        ]
        if let (name, _) = counts.first(where: { $0.1 < 1 }) { throw LoadPlanError("\(name) must be at least 1") }
        guard !parameters.scenarios.isEmpty else { throw LoadPlanError("choose at least one scenario") }
        // Identities and devices are built from the run id and must stay valid `Kiln-Identity` values.
        guard (1...24).contains(parameters.runID.count), parameters.runID.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "-" }),
            parameters.runID.allSatisfy(\.isASCII)
        else {
            throw LoadPlanError("the run id must be 1–24 ASCII letters, digits and dashes")
        }
        var tiers: [QuotaScenario: [PricedTier]] = [:]
        for scenario in parameters.scenarios {
            tiers[scenario] = try scenario.tiers.map { name throws(LoadPlanError) in
                guard let tier = policy.tiers[name] else {
                    throw LoadPlanError("tenant \(policy.tenant) has no tier \"\(name)\", which the \(scenario.rawValue) scenario uses")
                }
                let kinds = try scenario.kinds.map { kind throws(LoadPlanError) in
                    guard case .units(let cost, let quotaClass) = policy.cost(of: kind, tier: tier) else {
                        throw LoadPlanError("tenant \(policy.tenant) does not offer \(kind) to tier \"\(name)\" (\(scenario.rawValue) scenario)")
                    }
                    return PricedKind(name: kind, quotaClass: quotaClass, cost: cost)
                }
                return PricedTier(name: name, kinds: kinds)
            }
        }
        self.parameters = parameters
        self.tiers = tiers
    }

    /// Identities of the whole run, each sending one burst.
    public var burstCount: Int { parameters.scenarios.count * parameters.rounds * parameters.identities }

    public var requestCount: Int { burstCount * parameters.requestsPerIdentity }

    private var burstsPerWave: Int { max(1, parameters.waveSize / parameters.requestsPerIdentity) }

    public var waveCount: Int { (burstCount + burstsPerWave - 1) / burstsPerWave }

    /// The burst at `index`: scenario after scenario, round after round, identity after identity.
    public func burst(_ index: Int) -> IdentityBurst {
        let perScenario = parameters.rounds * parameters.identities
        let scenario = parameters.scenarios[index / perScenario]
        let round = index % perScenario / parameters.identities
        let number = index % parameters.identities
        let scenarioTiers = tiers[scenario] ?? []
        return IdentityBurst(
            scenario: scenario, identity: "\(parameters.runID)-\(scenario.rawValue)-\(round)-\(number)",
            tier: scenarioTiers[number % scenarioTiers.count], requests: parameters.requestsPerIdentity)
    }

    /// Every burst of the run.
    public var bursts: some Sequence<IdentityBurst> {
        (0..<burstCount).lazy.map { burst($0) }
    }

    /// The requests one barrier releases, burst after burst.
    public func requests(inWave wave: Int) -> [PlannedRequest] {
        let first = wave * burstsPerWave
        return (first..<min(first + burstsPerWave, burstCount)).flatMap { index in
            let burst = burst(index)
            return (0..<burst.requests).map { burst.request($0) }
        }
    }

    /// The requests of `wave` that generator process `process` sends: every `processes`-th one, so that each identity's
    /// requests come from every process at once.
    public func share(ofWave wave: Int, process: Int) -> [PlannedRequest] {
        let requests = requests(inWave: wave)
        return Array(stride(from: process, to: requests.count, by: parameters.processes).map { requests[$0] })
    }
}
