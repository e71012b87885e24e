import CurlClient
import KilnCore
import KilnJSON
import KilnPolicy
import LoadTesting

extension QuotaLoadCommand {
    /// Asks the API (`GET /v1/quota`) for the daily limits and running cap of every tier the run uses, and stops the run
    /// when they differ from the policy file's: the audit judges by the file, so against API nodes that load another it
    /// would fail for nothing, or pass what it should not.
    func checkAPIAgrees(url: String, key: String, plan: QuotaLoadPlan, policy: TenantPolicy) async throws {
        let client = try HTTPClient()
        defer { client.shutdown() }
        for name in Set(plan.parameters.scenarios.flatMap(\.tiers)).sorted() {
            guard let tier = policy.tiers[name] else { continue }
            let headers: HTTPHeaders = ["Authorization": "Bearer \(key)", "Kiln-Identity": "\(plan.parameters.runID)-preflight", "Kiln-Tier": name]
            let response = try await client.execute(HTTPRequest(method: "GET", url: "\(url)/v1/quota", headers: headers), timeout: .seconds(10))
            let body = String(decoding: response.body, as: UTF8.self)
            guard response.status == 200, let quota = JSONValue.parse(body) else {
                throw LoadRunError("GET \(url)/v1/quota as tier \(name) answered \(response.status): \(body.prefix(300))")
            }
            var differences: [String] = []
            if quota["unfinished_jobs"]?["cap"] != .number(Double(tier.runningJobCap)) {
                differences.append("running cap \(quota["unfinished_jobs"]?["cap"]?.canonicalJSON() ?? "none") there, \(tier.runningJobCap) here")
            }
            for (quotaClass, limit) in tier.daily.sorted(by: { $0.key.rawValue < $1.key.rawValue }) {
                let expected: JSONValue = limit.units.map { .number(Double($0)) } ?? .null
                let actual = quota["classes"]?[quotaClass.rawValue]?["limit"]
                if actual != expected {
                    differences.append("\(quotaClass.rawValue) limit \(actual?.canonicalJSON() ?? "none") there, \(expected.canonicalJSON()) here")
                }
            }
            guard differences.isEmpty else {
                throw LoadRunError("the API's tier \(name) differs from \(policies): \(differences.joined(separator: "; "))")
            }
        }
    }
}
