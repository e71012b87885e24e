import CurlClient
import Foundation
import LoadGeneration
import LoadTesting

/// Asks the API: `POST /v1/jobs` as the request's identity, device and tier (`Kiln-Identity`, `Kiln-Device`,
/// `Kiln-Tier`), vouched for by the tenant's key, as a tenant's own server does. Over plain HTTP it sends with
/// ``LoadClient`` (the generators share the cores they measure); a deployment's `https://` API through libcurl.
struct APIAdmission: AdmissionDecider {
    private enum Transport {
        case plain(LoadClient)
        case tls(HTTPClient)
    }

    /// Every job is due this long after it is admitted, so that no worker of the deployment finishes one during the run:
    /// nothing finishes, and the audit can read the running cap and the quota from what was admitted.
    static let delaySeconds = 3600

    /// The inputs the load test's kinds accept.
    private static let inputs = ["diag.echo": "{}", "diag.sleep": #"{"seconds":0}"#]

    private let transport: Transport
    private let apiURL: String
    private let key: String
    private let bodies: [String: [UInt8]]

    init(apiURL: String, key: String, kinds: [String], connections: Int) throws {
        transport =
            apiURL.hasPrefix("https://")
            ? .tls(try HTTPClient(configuration: HTTPClientConfiguration(maxConnectionsPerHost: connections)))
            : .plain(try LoadClient(url: apiURL, connections: connections))
        self.apiURL = apiURL
        self.key = key
        bodies = Dictionary(
            uniqueKeysWithValues: kinds.map { kind in
                (kind, Array(#"{"kind":"\#(kind)","input":\#(Self.inputs[kind] ?? "{}"),"delay_seconds":\#(Self.delaySeconds)}"#.utf8))
            })
    }

    func warmUp(connections: Int) async throws {
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<connections {
                group.addTask {
                    let status =
                        switch transport {
                        case .plain(let client): try await client.send(client.request("GET", "/healthz"), timeout: .seconds(10)).status
                        case .tls(let client):
                            try await client.execute(HTTPRequest(method: "GET", url: "\(apiURL)/healthz"), timeout: .seconds(10)).status
                        }
                    guard status == 200 else { throw LoadRunError("GET \(apiURL)/healthz answered \(status)") }
                }
            }
            try await group.waitForAll()
        }
    }

    /// The answer comes on the HTTP client's thread, which sends the next request from there: no other thread is woken
    /// for it, since resuming a task with each answer would be a large part of a generator's CPU.
    func decide(_ request: PlannedRequest, answer: @escaping @Sendable (AdmissionAnswer) -> Void) {
        let headers: [(name: String, value: String)] = [
            ("Authorization", "Bearer \(key)"), ("Content-Type", "application/json"), ("Kiln-Identity", request.identity),
            ("Kiln-Device", request.device), ("Kiln-Tier", request.tier),
        ]
        let body = bodies[request.kind] ?? []
        switch transport {
        case .plain(let client):
            client.send(client.request("POST", "/v1/jobs", headers: headers, body: body)) { result in
                answer(Self.answer(result.map { ($0.status, $0.body) }.mapError { $0 }))
            }
        case .tls(let client):
            let post = HTTPRequest(method: "POST", url: "\(apiURL)/v1/jobs", headers: HTTPHeaders(headers), body: body)
            client.execute(post, timeout: .seconds(30)) { result in answer(Self.answer(result.map { ($0.status, $0.body) }.mapError { $0 })) }
        }
    }

    /// What the API's answer (its status and body), or the failure to get one, says of the request.
    private static func answer(_ result: Result<(status: Int, body: [UInt8]), any Error>) -> AdmissionAnswer {
        let (status, body): (Int, [UInt8])
        switch result {
        case .success(let answer): (status, body) = answer
        case .failure(let error): return AdmissionAnswer(status: 0, reason: "\(error)")
        }
        if status == 202 { return AdmissionAnswer(status: 202) }
        guard status == 429 else { return AdmissionAnswer(status: status, reason: member("code", of: body) ?? "") }
        let remaining = member("remaining", of: body).flatMap { Int($0) }
        return AdmissionAnswer(status: 429, reason: member("reason", of: body) ?? "", remaining: remaining)
    }

    /// The value of a top-level string or number member of a problem+json body. Found by searching its bytes rather
    /// than by parsing the JSON: the generators share the machine's two cores with the API and Redis, and a refusal
    /// needs only these members, which the API writes without spaces. Foundation's `range(of:)` on the body as a
    /// `String`, or `firstRange(of:)` on its bytes, would cost a generator far more.
    private static func member(_ name: String, of body: [UInt8]) -> String? {
        let pattern = Array("\"\(name)\":".utf8)
        guard body.count >= pattern.count,
            let at = (0...(body.count - pattern.count)).first(where: { body[$0..<($0 + pattern.count)].elementsEqual(pattern) })
        else { return nil }
        let value = body[(at + pattern.count)...].drop { $0 == UInt8(ascii: "\"") }
        return String(decoding: value.prefix { $0 != UInt8(ascii: "\"") && $0 != UInt8(ascii: ",") && $0 != UInt8(ascii: "}") }, as: UTF8.self)
    }

    func close() async throws {
        switch transport {
        case .plain(let client): client.shutdown()
        case .tls(let client): client.shutdown()
        }
    }
}
