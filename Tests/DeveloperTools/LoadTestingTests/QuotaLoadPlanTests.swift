import KilnPolicy
import LoadTesting
import Testing

/// The plan every generator process expands: each request once, each identity's requests together and spread over
/// every process, and only tiers and kinds the policy has.
@Suite struct QuotaLoadPlanTests {
    @Test func everyRequestGoesToExactlyOneProcessAndEveryProcessSendsForEachIdentity() throws {
        let plan = try LoadTestPolicy.plan(QuotaScenario.allCases, identities: 7, requests: 12, processes: 3, waveSize: 50)
        #expect(plan.requestCount == 5 * 2 * 7 * 12)
        var requestsPerIdentity: [String: Int] = [:]
        var processesPerIdentity: [String: Set<Int>] = [:]
        var wavesPerIdentity: [String: Set<Int>] = [:]
        for wave in 0..<plan.waveCount {
            for process in 0..<3 {
                for request in plan.share(ofWave: wave, process: process) {
                    requestsPerIdentity[request.identity, default: 0] += 1
                    processesPerIdentity[request.identity, default: []].insert(process)
                    wavesPerIdentity[request.identity, default: []].insert(wave)
                }
            }
        }
        #expect(requestsPerIdentity.count == plan.burstCount)
        #expect(requestsPerIdentity.values.allSatisfy { $0 == 12 })
        #expect(processesPerIdentity.values.allSatisfy { $0 == [0, 1, 2] })
        #expect(wavesPerIdentity.values.allSatisfy { $0.count == 1 }, "one identity's requests are released by one barrier")
    }

    @Test func theCostScenarioMixesCostsAndTheSharedPoolUsesThreeDevices() throws {
        let plan = try LoadTestPolicy.plan([.cost, .sharedPool])
        let cost = plan.burst(0)
        #expect(Set((0..<cost.requests).map { cost.request($0).cost }) == [1, 2])
        let pool = plan.burst(plan.burstCount - 1)
        #expect(pool.scenario == .sharedPool)
        #expect(Set((0..<pool.requests).map { pool.request($0).device }).count == 3)
    }

    @Test func aTierTheScenarioNeedsMustBeInThePolicy() throws {
        let policy = try LoadTestPolicy.checkedIn()
        let parameters = QuotaLoadParameters(
            runID: "t1", scenarios: [.runningCap], identities: 1, requestsPerIdentity: 1, rounds: 1, processes: 1, connections: 1, waveSize: 1)
        #expect(throws: Never.self) { try QuotaLoadPlan(parameters, policy: policy) }
        var bad = parameters
        bad.runID = "has space"
        #expect(throws: LoadPlanError.self) { try QuotaLoadPlan(bad, policy: policy) }
        bad = parameters
        bad.processes = 0
        #expect(throws: LoadPlanError("processes must be at least 1")) { try QuotaLoadPlan(bad, policy: policy) }
    }
}
