import Foundation
import KilnCore
import KilnPolicy
import LoadTesting
import Testing

/// The load-test tenant's section of the checked-in policy file, and plans and decisions made with it.
enum LoadTestPolicy {
    static func checkedIn() throws -> TenantPolicy {
        let path = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
            .appendingPathComponent("deploy/policies.json").path
        let tenant = try #require(TenantID(validating: "loadtest"))
        return try #require(try PolicySet.load(path: path)[tenant])
    }

    static func plan(
        _ scenarios: [QuotaScenario], identities: Int = 3, requests: Int = 20, processes: Int = 4, waveSize: Int = 100
    ) throws
        -> QuotaLoadPlan
    {
        try QuotaLoadPlan(
            QuotaLoadParameters(
                runID: "t1", scenarios: scenarios, identities: identities, requestsPerIdentity: requests, rounds: 2, processes: processes,
                connections: 4, waveSize: waveSize),
            policy: checkedIn())
    }

    /// The burst's requests answered in order: the first `admitted` are admitted, the others refused with `reason`; the
    /// answers come a millisecond apart, each taking half of one.
    static func answer(_ burst: IdentityBurst, admitting admitted: Int, refusing reason: String) -> [Decision] {
        (0..<burst.requests).map { index in
            let sentAt = 1_700_000_000_000_000 + Int64(index) * 1000
            return Decision(
                wave: 0, request: burst.request(index), status: index < admitted ? 202 : 429, reason: index < admitted ? "" : reason,
                sentAt: sentAt, answeredAt: sentAt + 500)
        }
    }
}
