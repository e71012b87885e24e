/// What one quota load run sends. The parent process chooses it and hands it to every generator process, which
/// expands the same ``QuotaLoadPlan`` from it and sends its share.
public struct QuotaLoadParameters: Codable, Sendable, Equatable {
    /// Prefixes every identity and device of the run, so that runs against one deployment never share a pool or a
    /// cooldown.
    public var runID: String
    public var scenarios: [QuotaScenario]
    /// Identities per scenario and round.
    public var identities: Int
    /// Requests each identity sends at once.
    public var requestsPerIdentity: Int
    /// How many times each scenario is repeated, with new identities.
    public var rounds: Int
    /// Generator processes sending at once; each identity's requests are spread over all of them.
    public var processes: Int
    /// Requests each generator process has in flight at once.
    public var connections: Int
    /// Most decisions one barrier releases; one identity's requests are never split between two.
    public var waveSize: Int

    public init(
        runID: String, scenarios: [QuotaScenario], identities: Int, requestsPerIdentity: Int, rounds: Int, processes: Int,
        connections: Int, waveSize: Int
    ) {
        self.runID = runID
        self.scenarios = scenarios
        self.identities = identities
        self.requestsPerIdentity = requestsPerIdentity
        self.rounds = rounds
        self.processes = processes
        self.connections = connections
        self.waveSize = waveSize
    }
}
