import ArgumentParser
import Crypto
import CurlClient
import Dispatch
import Foundation
import Glibc
import Histogram
import KilnCommandLine
import KilnCore
import KilnJSON
import KilnProviders
import KilnQueue
import KilnStore

/// `kiln-dev bench mcp`: many MCP sessions at once, each opening a campaign and playing a turn with a progress token,
/// through an API and a worker process against the provider simulator. Prints how long the turn's first words took
/// from leaving the simulator to reaching the MCP client as a progress notification.
struct MCPBenchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "mcp", abstract: "Campaign turns streamed to concurrent MCP sessions; prints the first words' latency.")

    @OptionGroup var connections: ConnectionOptions
    @Option(help: "MCP sessions playing at once.") var sessions = 100
    @Option(help: "Milliseconds between two deltas of the simulator.") var deltaIntervalMs = 20
    @Option(help: "Port of the API the benchmark starts.") var port = 8798
    @Option(help: "Where the child processes log.") var logDirectory = ".kiln/logs"

    private static let secretVariable = "KILN_BENCH_MCP_SECRET"
    private static let issuer = "https://auth.bench.example"

    func run() async throws {
        guard (1...1000).contains(sessions) else { throw ValidationError("--sessions must be 1–1000") }
        try FileManager.default.createDirectory(atPath: logDirectory, withIntermediateDirectories: true)
        let namespace = "bench-\(UUID().uuidString.prefix(8).lowercased())"
        var options = connections
        options.namespace = namespace
        let stack = BenchStack(connections: options, port: port, logDirectory: logDirectory)
        let log = StreamWriteLog()
        try await BenchSimulator.serving(deltaInterval: .milliseconds(deltaIntervalMs), log: log) { simulator in
            let endpoint = "http://127.0.0.1:\(port)/mcp/bench"
            let secret = UUID().uuidString + UUID().uuidString
            setenv(Self.secretVariable, secret, 1)
            let policies = try writePolicies(resource: endpoint)
            let providers = try writeProviders(simulatorPort: simulator.port)

            try await Runtime.with(options) { runtime in
                try await runtime.namespace.prepare()
                _ = try await stack.tenant(runtime)
                let api = try await stack.startAPI(namespace: namespace, options: ["--policies", policies])
                let worker = try ChildProcess(
                    stack.childArguments("worker", namespace: namespace) + [
                        "--io", String(sessions * 2 + 16), "--cpu", "0", "--providers", providers,
                    ],
                    logTo: "\(logDirectory)/bench-worker-mcp.log")
                try await stack.stopping([api, worker]) {
                    let started = ContinuousClock.now
                    let turns = try await self.playTurns(endpoint: endpoint, secret: secret)
                    let elapsed = (ContinuousClock.now - started).seconds
                    var histogram = Histogram<UInt64>(highestTrackableValue: 600_000_000)
                    for turn in turns {
                        guard let requestID = log.requestID(answering: turn.action), let sent = Self.firstNarrativeWrite(log.deltas(requestID)) else {
                            continue
                        }
                        _ = histogram.record((turn.firstProgressAt &- sent) / 1000)
                    }
                    print(
                        String(
                            format: "mcp: %d sessions, each opening a campaign and playing a streamed turn: %d turns streamed, in %.1f s",
                            sessions, turns.count, elapsed))
                    print(
                        String(
                            format:
                                "first words of a turn, leaving the simulator → a progress notification at the MCP client (%llu turns): p50 %.2f ms, p99 %.2f ms, max %.2f ms",
                            histogram.totalCount, Double(histogram.valueAtPercentile(50)) / 1000, Double(histogram.valueAtPercentile(99)) / 1000,
                            Double(histogram.max) / 1000))
                }
                try await runtime.namespace.deleteAll()
            }
        }
    }

    /// A played turn: the action that names its session, and when its first progress notification arrived.
    struct Turn: Sendable {
        let action: String
        let firstProgressAt: UInt64
    }

    /// Every session at once: initialize, open a campaign (a JSON answer), then play a turn with a progress token.
    private func playTurns(endpoint: String, secret: String) async throws -> [Turn] {
        let client = try HTTPClient(configuration: HTTPClientConfiguration(maxConnectionsPerHost: 512))
        defer { client.shutdown() }
        return try await withThrowingTaskGroup(of: Turn?.self) { group in
            for index in 0..<sessions {
                group.addTask {
                    let token = try Self.token(subject: "bench-player-\(index)", audience: endpoint, secret: secret)
                    var headers: HTTPHeaders = [
                        "Authorization": "Bearer \(token)", "Content-Type": "application/json", "Accept": "application/json, text/event-stream",
                    ]
                    let initialize = try await client.execute(
                        HTTPRequest(
                            method: "POST", url: endpoint, headers: headers,
                            body: Array(
                                #"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"bench","version":"1"}}}"#
                                    .utf8)))
                    guard let session = initialize.headers["Mcp-Session-Id"] else {
                        throw ValidationError("initialize answered \(initialize.status) without a session")
                    }
                    headers.add(name: "Mcp-Session-Id", value: session)
                    let open = JSONValue.object([
                        "jsonrpc": "2.0", "id": 2, "method": "tools/call",
                        "params": .object([
                            "name": "create_campaign",
                            "arguments": .object(["setting": "A harbour at night.", "character": .object(["name": .string("Player \(index)")])]),
                        ]),
                    ])
                    let opened = try await client.execute(
                        HTTPRequest(method: "POST", url: endpoint, headers: headers, body: Array(open.canonicalJSON().utf8)), timeout: .seconds(600))
                    guard
                        let campaign = JSONValue.parse(String(decoding: opened.body, as: UTF8.self))?["result"]?["structuredContent"]?["campaign"]?[
                            "id"]
                    else { return nil }
                    let action = "Session \(index) rings the harbour bell."
                    let turn = JSONValue.object([
                        "jsonrpc": "2.0", "id": 3, "method": "tools/call",
                        "params": .object([
                            "name": "process_action", "arguments": .object(["campaign_id": campaign, "action": .string(action)]),
                            "_meta": .object(["progressToken": .string("turn-\(index)")]),
                        ]),
                    ])
                    let response = try await client.stream(
                        HTTPRequest(method: "POST", url: endpoint, headers: headers, body: Array(turn.canonicalJSON().utf8)), timeout: .seconds(600))
                    var parser = ServerSentEventParser()
                    var first: UInt64?
                    for try await chunk in response.body {
                        let now = DispatchTime.now().uptimeNanoseconds
                        for event in parser.parse(chunk) where first == nil && event.data.contains("notifications/progress") {
                            first = now
                        }
                    }
                    return first.map { Turn(action: action, firstProgressAt: $0) }
                }
            }
            var turns: [Turn] = []
            for try await turn in group { if let turn { turns.append(turn) } }
            return turns
        }
    }

    /// When the simulator wrote the first characters of the narrative: the first delta after which the answer's JSON
    /// has begun the `narrative` string and holds a character of it.
    private static func firstNarrativeWrite(_ deltas: [(at: UInt64, text: String)]) -> UInt64? {
        var answer = ""
        for delta in deltas {
            answer += delta.text
            if let start = answer.range(of: #""narrative"\s*:\s*""#, options: .regularExpression), answer[start.upperBound...].first != nil {
                return delta.at
            }
        }
        return nil
    }

    /// The app's token for the endpoint: HS256, issued for its resource.
    private static func token(subject: String, audience: String, secret: String) throws -> String {
        func base64URL(_ data: Data) -> String {
            data.base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
                .replacingOccurrences(of: "=", with: "")
        }
        let header = base64URL(Data(#"{"alg":"HS256","typ":"JWT"}"#.utf8))
        let claims = JSONValue.object([
            "sub": .string(subject), "iss": .string(issuer), "aud": .string(audience),
            "exp": .number(Double(Int(Date().timeIntervalSince1970) + 3600)),
        ])
        let payload = base64URL(Data(claims.canonicalJSON().utf8))
        let signature = HMAC<SHA256>.authenticationCode(for: Data("\(header).\(payload)".utf8), using: SymmetricKey(data: Data(secret.utf8)))
        return "\(header).\(payload).\(base64URL(Data(signature)))"
    }

    /// The `bench` tenant's policy: JWTs of the benchmark's secret, an MCP endpoint, quotas no session reaches.
    private func writePolicies(resource: String) throws -> String {
        let path = URL(fileURLWithPath: logDirectory).appendingPathComponent("bench-mcp-policies.json").path
        let json = """
            {"bench": {
               "identity_modes": ["jwt"],
               "jwt": {"issuer": "\(Self.issuer)", "audience": "bench-app", "hs256_secret_env": "\(Self.secretVariable)"},
               "mcp": {"resource": "\(resource)", "authorization_servers": ["\(Self.issuer)"]},
               "tiers": {"free": {"lowest": true, "daily": {"text": 1000000}, "running_jobs": 1000, "refund_cap": 1, "max_devices_per_day": 4}},
               "kinds": {"campaign.open": {"class": "text", "cost": 1}, "campaign.turn": {"class": "text", "cost": 1}},
               "reset_time_zone": "UTC", "safety": "standard",
               "abuse": {"shadow_mode": true, "max_identities_per_device_per_day": 3,
                         "identity_velocity": {"count": 100000, "period_seconds": 60, "burst": 100000},
                         "ip_velocity": {"count": 1000000, "period_seconds": 60, "burst": 1000000},
                         "refund_ratio": {"min_count": 3, "ratio": 0.5}, "safety_rejections": {"min_count": 3, "ratio": 0.3},
                         "escalation": {"cooldown_seconds": 600, "block_seconds": 86400}}}}
            """
        try json.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    /// A provider file that sends the campaign kinds to the in-process simulator.
    private func writeProviders(simulatorPort: Int) throws -> String {
        let path = URL(fileURLWithPath: logDirectory).appendingPathComponent("bench-mcp-providers.json").path
        let json = """
            {"providers": {"simulator": {"api": "anthropic", "base_url": "http://127.0.0.1:\(simulatorPort)", "api_key": "bench"}},
             "routes": [{"tenant": "*", "kind": "campaign.open", "models": [{"provider": "simulator", "model": "claude-bench"}]},
                        {"tenant": "*", "kind": "campaign.turn", "models": [{"provider": "simulator", "model": "claude-bench"}]}]}
            """
        try json.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }
}
