import CurlClient
import Foundation
import Glibc
import KilnJSON
import KilnProviders
import Testing

/// An API node stopped as a deploy or a scale-in stops it: with SIGTERM, while clients follow jobs' event streams.
@Suite struct APIShutdownTests {
    @Test func sigtermEndsAnOpenEventStreamCleanlyAndTheNodeExits() async throws {
        try await Harness.with { harness in
            let client = try await harness.tenant("acme")
            let api = try await harness.readyAPI()
            // A job due in an hour: its stream has nothing more to say for an hour.
            let submit = try harness.request(
                "POST", "/v1/jobs", as: client, body: #"{"kind":"diag.echo","input":{"message":"later"},"delay_seconds":3600}"#, base: api.url)
            let id = try #require(try await harness.send(submit).json?["id"]?.stringValue)
            // Bounded, as every wait on a job in these tests, so a stream that never ends fails the test instead of hanging it.
            let response = try await harness.http.stream(
                try harness.request("GET", "/v1/jobs/\(id)/events", as: client, base: api.url), timeout: .seconds(30))
            var parser = ServerSentEventParser()
            var events: [String?] = []
            var chunks = response.body.makeAsyncIterator()
            while events.isEmpty, let chunk = try await chunks.next() { events += parser.parse(chunk).map(\.event) }
            #expect(events == ["status"])
            api.kill(SIGTERM)
            // The stream ends as an HTTP response ends, with no error (the client resumes after its last event on
            // another node), and nothing more is sent on it.
            var after: [String?] = []
            while let chunk = try await chunks.next() { after += parser.parse(chunk).map(\.event) }
            #expect(after.isEmpty)
            // Before, the node waited for the job to end, an hour here; systemd and Kubernetes kill it after 30 s.
            #expect(try await api.waitForExit(within: .seconds(20)))
        }
    }

    /// Every JSON-RPC message the MCP endpoint cannot accept is answered at once and holds nothing: with one of each
    /// kept open on its connection, a SIGTERM'd node closes them, says it is draining and that it stopped, and exits
    /// within its drain period, the time systemd gives it (`TimeoutStopSec` of `deploy/systemd/kiln-api.service`).
    @Test func sigtermDrainsANodeHoldingMalformedMCPRequests() async throws {
        try await Harness.with { harness in
            _ = try await harness.tenant("worldarchitect")
            let policies = FileManager.default.temporaryDirectory.appendingPathComponent("mcp-policies-\(UUID().uuidString).json")
            try Data(MCPTests.policies(resource: MCPTests.resource).utf8).write(to: policies)
            defer { try? FileManager.default.removeItem(at: policies) }
            let api = try APIProcess(try harness.kilnCommand([]), policies: policies, environment: [MCPTests.secretVariable: MCPTests.secret])
            try #require(try await api.waitUntilReady(within: .seconds(60), http: harness.http))
            let token = try MCPTests.token(audience: MCPTests.resource)
            let initialize =
                #"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}"#
            let malformed = [
                #"{"jsonrpc":"2.0","id":{"a":1},"method":"ping"}"#, #"{"jsonrpc":"2.0","id":[1],"method":"ping"}"#,
                #"{"jsonrpc":"2.0","id":true,"method":"ping"}"#, #"{"jsonrpc":"2.0","id":1.5,"method":"ping"}"#,
                #"{"jsonrpc":"2.0","id":null,"method":"tools/list"}"#, #"{"jsonrpc":"2.0","id":7}"#, #"{"jsonrpc":"2.0","id":8,"method":5}"#,
                #"{"jsonrpc":"1.0","id":9,"method":"ping"}"#, #"{"foo":1}"#, "5", #""ping""#, "[\(initialize)]",
                initialize.replacingOccurrences(of: #""id":1"#, with: #""id":{"a":1}"#),
            ]
            let port = try #require(URLComponents(string: api.url)?.port)
            var connections: [RawConnection] = []
            for body in malformed {
                let connection = try RawConnection(port: port)
                try connection.send(
                    "POST /mcp/worldarchitect HTTP/1.1\r\nHost: kiln\r\nAuthorization: Bearer \(token)\r\nContent-Type: application/json\r\n"
                        + "Accept: application/json, text/event-stream\r\nContent-Length: \(body.utf8.count)\r\n\r\n\(body)")
                connections.append(connection)
            }
            // Each is answered at once, and its connection kept open, as after any answer.
            for (body, connection) in zip(malformed, connections) {
                let answer = try await connection.read(until: "}")
                #expect(answer.hasPrefix("HTTP/1.1 400"), "\(body): \(answer)")
                #expect(answer.contains(#""code":-32600"#), "\(body): \(answer)")
            }
            api.kill(SIGTERM)
            let drainPeriod = try Self.stopTimeout()
            #expect(try await api.waitForExit(within: drainPeriod), "still running \(drainPeriod) after SIGTERM")
            // The node closed every connection on its way out.
            for connection in connections { #expect(try await connection.readUntilClosed().isEmpty) }
            #expect(api.logText.contains("api draining"), "\(api.logText)")
            #expect(api.logText.contains("api stopped"), "\(api.logText)")
        }
    }

    /// How long systemd lets `kiln api` take to stop before it kills it.
    static func stopTimeout() throws -> Duration {
        let unit = try String(contentsOf: TestServers.repositoryRoot.appendingPathComponent("deploy/systemd/kiln-api.service"), encoding: .utf8)
        let line = try #require(unit.split(separator: "\n").first { $0.hasPrefix("TimeoutStopSec=") && $0.hasSuffix("s") })
        return .seconds(try #require(Int(line.dropFirst("TimeoutStopSec=".count).dropLast())))
    }
}
