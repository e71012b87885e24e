import CurlClient
import Foundation
import FoundationNetworking
import IdentityFixtures
import KilnAPI
import KilnJSON
import KilnKeys
import KilnProviders
import KilnQueue
import MCP
import RedisClient
import Spawning
import Testing

/// WorldArchitect over MCP (docs/mcp.md), end to end on the provider simulator: the official Python SDK
/// (`Tests/Integration/MCPClient/mcp_flow.py`) as an independent client plays a campaign, resumes a dropped answer, and goes
/// through two API nodes in turn; raw requests (`RawMCPSession`) check each refusal is the spec's answer, a cancellation,
/// and how a resumed answer ends when its writing node lives on or is gone.
@Suite struct MCPTests {
    static let secretVariable = "KILN_TEST_MCP_SECRET"
    static let secret = "an-mcp-test-secret-of-at-least-32-bytes!"
    static let issuer = "https://auth.worldarchitect.example"

    static func policies(resource: String, textPerDay: Int = 100) -> String {
        """
        {"worldarchitect": {
           "identity_modes": ["jwt"],
           "jwt": {"issuer": "\(issuer)", "audience": "worldarchitect-app", "hs256_secret_env": "\(secretVariable)"},
           "mcp": {"resource": "\(resource)", "authorization_servers": ["\(issuer)"]},
           "tiers": {"free": {"lowest": true, "daily": {"text": \(textPerDay), "document": 100}, "running_jobs": 100, "refund_cap": 1,
                              "max_devices_per_day": 4}},
           "kinds": {"campaign.open": {"class": "text", "cost": 1}, "campaign.turn": {"class": "text", "cost": 1},
                     "document.export": {"class": "document", "cost": 1}},
           "reset_time_zone": "UTC", "safety": "standard",
           "abuse": {"shadow_mode": true, "max_identities_per_device_per_day": 3,
                     "identity_velocity": {"count": 1000, "period_seconds": 60, "burst": 500},
                     "ip_velocity": {"count": 6000, "period_seconds": 60, "burst": 3000},
                     "refund_ratio": {"min_count": 3, "ratio": 0.5}, "safety_rejections": {"min_count": 3, "ratio": 0.3},
                     "escalation": {"cooldown_seconds": 600, "block_seconds": 86400}}}}
        """
    }

    /// The app's token for the endpoint: its sign-in's JWT issued for the MCP resource.
    static func token(_ subject: String = "player-1", audience: String) throws -> String {
        try TestKeySet.hs256(
            ["sub": subject, "iss": issuer, "aud": audience, "exp": SignedToken.seconds(Date(timeIntervalSinceNow: 3600))], secret: Array(secret.utf8)
        )
    }

    /// The endpoint's canonical address, which tokens are issued for: its public name, as behind a load balancer.
    static let resource = "https://kiln.test/mcp/worldarchitect"

    /// The simulator, a worker, the policy and an API node: the endpoint's address on this machine.
    static func start(_ harness: Harness, textPerDay: Int = 100) async throws -> String {
        try await ProviderJobTests.startProviders(harness, deltaInterval: .milliseconds(5))
        try harness.usePolicies(policies(resource: resource, textPerDay: textPerDay), environment: [secretVariable: secret])
        _ = try await harness.tenant("worldarchitect")
        return try await harness.startAPI() + "/mcp/worldarchitect"
    }

    /// Runs the Python client's `command`; what it printed, as JSON.
    static func python(_ command: String, _ endpoint: String, token: String, otherNodes: [String] = []) async throws -> JSONValue {
        let script = TestServers.repositoryRoot.appendingPathComponent("Tests/Integration/MCPClient/mcp_flow.py")
        let output = try await output(of: ["python3", script.path, command, endpoint, token] + otherNodes)
        return try #require(JSONValue.parse(output), "mcp_flow.py printed no JSON: \(output)")
    }

    /// Runs `command` to its end; what it printed. A command that fails fails the test, with what it printed.
    static func output(of command: [String]) async throws -> String {
        let log = FileManager.default.temporaryDirectory.appendingPathComponent("mcp-\(UUID().uuidString).out")
        _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        defer { try? FileManager.default.removeItem(at: log) }
        let handle = try FileHandle(forWritingTo: log)
        defer { try? handle.close() }
        let process = try SpawnedProcess(command, stdout: .descriptor(handle.fileDescriptor))
        let termination = await process.exit()
        let output = String(decoding: try Data(contentsOf: log), as: UTF8.self)
        try #require(termination.succeeded, "\(command.prefix(3).joined(separator: " ")) exited \(termination.shellStatus): \(output)")
        return output
    }

    /// The simulator with deltas `deltaInterval` apart, a worker, the policy, an API node (`configure`d) and a raw
    /// session with a campaign opened in it.
    static func campaignWithSlowTurns(
        _ harness: Harness, deltaInterval: Duration, configure: (inout APIConfiguration) -> Void = { _ in }
    ) async throws -> (session: RawMCPSession, campaign: String) {
        try await ProviderJobTests.startProviders(harness, deltaInterval: deltaInterval)
        try harness.usePolicies(policies(resource: resource), environment: [secretVariable: secret])
        _ = try await harness.tenant("worldarchitect")
        let endpoint = try await harness.startAPI(configure) + "/mcp/worldarchitect"
        let session = try await RawMCPSession.open(harness, endpoint: endpoint, token: try token(audience: resource))
        let opened = try await session.post(
            #"{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"create_campaign","arguments":{"setting":"A salt desert.","character":{"name":"Ona"}}}}"#
        )
        return (session, try #require(opened?["result"]?["structuredContent"]?["campaign"]?["id"]?.stringValue))
    }

    /// `process_action` in `campaign` as request `turn-1`, with a progress token: answered with SSE.
    static func turn(in campaign: String) -> String {
        #"{"jsonrpc":"2.0","id":"turn-1","method":"tools/call","params":{"name":"process_action","arguments":{"campaign_id":"\#(campaign)","action":"Walk on."},"_meta":{"progressToken":"p"}}}"#
    }

    @Test func aPlayerPlaysACampaignThroughTheOfficialPythonClient() async throws {
        try await Harness.with { harness in
            let endpoint = try await Self.start(harness)
            let seen = try await Self.python("flow", endpoint, token: try Self.token(audience: Self.resource))
            #expect(seen["protocol_version"]?.stringValue?.isEmpty == false)
            #expect(
                seen["tools"]?.arrayValue?.compactMap(\.stringValue)
                    == ["create_campaign", "export_campaign", "get_campaign_state", "list_campaigns", "process_action", "update_campaign"])
            let opened = try #require(seen["opened"])
            #expect(opened["is_error"] == false, "\(opened)")
            #expect(opened["result"]?["scene"]?["number"] == 1)
            let turns = try #require(seen["turns"]?.arrayValue)
            #expect(turns.count == 3)
            for (index, turn) in turns.enumerated() {
                #expect(turn["is_error"] == false, "turn \(index + 1): \(turn)")
                #expect(turn["result"]?["scene"]?["number"]?.intValue == index + 2)
                // Every notification came before the result, each one's progress above the last, and together they
                // carry the narrative the result holds.
                let progress = turn["progress"]?.arrayValue?.compactMap(\.numberValue) ?? []
                #expect(!progress.isEmpty && progress == progress.sorted() && Set(progress).count == progress.count, "\(progress)")
                #expect(turn["streamed"] == turn["result"]?["scene"]?["narrative"], "turn \(index + 1)")
            }
            #expect(seen["export_prefix"] == "%PDF-")
            #expect(seen["state"]?["scene_count"] == 4)
            #expect(seen["resource_scenes"] == 4)
            let campaign = try #require(opened["result"]?["campaign"]?["id"]?.stringValue)
            #expect(seen["resources"]?.arrayValue?.compactMap(\.stringValue) == ["campaign://\(campaign)"])
        }
    }

    @Test func aSessionsRequestsMayLandOnEitherOfTwoAPINodes() async throws {
        try await Harness.with { harness in
            let endpoint = try await Self.start(harness)
            let second = try await harness.startAPI(over: harness.dependencies()) + "/mcp/worldarchitect"
            let seen = try await Self.python("flow", endpoint, token: try Self.token(audience: Self.resource), otherNodes: [second])
            let connections = seen["connections_per_node"]?.arrayValue?.compactMap(\.intValue) ?? []
            #expect(connections.count == 2 && connections.allSatisfy { $0 >= 5 }, "both nodes served the session: \(connections)")
            let turns = try #require(seen["turns"]?.arrayValue)
            #expect(turns.count == 3 && turns.allSatisfy { $0["is_error"] == false && $0["streamed"] == $0["result"]?["scene"]?["narrative"] })
            #expect(seen["state"]?["scene_count"] == 4)
            #expect(seen["export_prefix"] == "%PDF-")
        }
    }

    /// The SDK the app uses, as far as it works on Linux: its HTTP transport without SSE, over Kiln's JSON answers.
    @Test func theSwiftSDKsClientPlaysOverJSONAnswers() async throws {
        try await Harness.with { harness in
            let endpoint = try await Self.start(harness)
            let token = try Self.token(audience: Self.resource)
            // A turn runs a job and answers when it ends, which on a machine loaded by the whole suite can take longer
            // than URLSession's default 60 s.
            let session = URLSessionConfiguration.default
            session.timeoutIntervalForRequest = 300
            let transport = HTTPClientTransport(
                endpoint: try #require(URL(string: endpoint)), configuration: session, streaming: false,
                requestModifier: { request in
                    var request = request
                    request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization")
                    return request
                })
            let client = Client(name: "WorldArchitect", version: "1.0")
            let initialized = try await client.connect(transport: transport)
            #expect(initialized.serverInfo.name == "kiln")
            let tools = try await client.listTools().tools.map(\.name)
            #expect(tools.contains("process_action"))
            let (content, isError) = try await client.callTool(
                name: "create_campaign", arguments: ["setting": .string("A salt desert."), "character": .object(["name": .string("Ona")])])
            #expect(isError != true, "\(content)")
            let texts = content.compactMap { block -> String? in
                if case .text(let text, _, _) = block { return text }
                return nil
            }
            let answer = try #require(texts.compactMap { JSONValue.parse($0) }.first { $0["campaign"] != nil })
            #expect(answer["scene"]?["number"] == 1)
            let campaign = try #require(answer["campaign"]?["id"]?.stringValue)
            let (state, stateError) = try await client.callTool(name: "get_campaign_state", arguments: ["campaign_id": .string(campaign)])
            #expect(stateError != true && !state.isEmpty)
            await client.disconnect()
        }
    }

    @Test func aCancelledRequestCancelsItsTurnAndEndsWithoutAResponse() async throws {
        try await Harness.with { harness in
            // Deltas slow enough that the turn is still being written when the cancellation comes, however late.
            let (session, campaign) = try await Self.campaignWithSlowTurns(harness, deltaInterval: .milliseconds(100))
            var events: [JSONValue] = []
            try await RawMCPSession.read(try await session.stream(Self.turn(in: campaign))) { message in
                events.append(message)
                if events.count == 1 {
                    _ = try await session.post(
                        #"{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":"turn-1","reason":"the player left"}}"#)
                }
            }
            #expect(!events.isEmpty && events.allSatisfy { $0["method"] == "notifications/progress" }, "no response after the cancellation")
            let state = try await session.post(
                #"{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"get_campaign_state","arguments":{"campaign_id":"\#(campaign)"}}}"#)
            let view = state?["result"]?["structuredContent"]
            #expect(view?["scene_count"] == 1 && view?["status"] == "ready", "the turn was not applied: \(String(describing: view))")
        }
    }

    @Test func aDroppedAnswerResumesWithoutLossOrRepeat() async throws {
        try await Harness.with { harness in
            let endpoint = try await Self.start(harness)
            let seen = try await Self.python("resume", endpoint, token: try Self.token(audience: Self.resource))
            #expect(seen["dropped_after"] == 3)
            let ids = seen["ids"]?.arrayValue?.compactMap(\.stringValue) ?? []
            #expect(Set(ids).count == ids.count, "no event twice: \(ids)")
            let progress = seen["progress"]?.arrayValue?.compactMap(\.numberValue) ?? []
            #expect(!progress.isEmpty && progress == (1...progress.count).map(Double.init), "none lost, none repeated: \(progress)")
            #expect(seen["final"]?.arrayValue == [.number(3)], "the response came once")
            #expect(seen["deleted"] == 200)
            #expect(seen["after_delete"] == 404, "an ended session is not found")
        }
    }

    @Test func aTurnLongerThanItsAnswersLeaseResumesToItsResponse() async throws {
        try await Harness.with { harness in
            // Deltas slow enough that the turn (over 500 of them) goes on for many times the lease: its node must keep
            // renewing it. The lease leaves a loaded machine seconds to renew it in.
            let (session, campaign) = try await Self.campaignWithSlowTurns(harness, deltaInterval: .milliseconds(50)) {
                $0.mcpAnswerLease = .seconds(5)
            }
            // The client drops the answer after its first message.
            let answer = try await session.stream(Self.turn(in: campaign))
            var parser = ServerSentEventParser()
            var first: ServerSentEvent?
            reading: for try await chunk in answer.body {
                for event in parser.parse(chunk) {
                    first = event
                    break reading
                }
            }
            let dropped = try #require(first?.id.flatMap { $0.split(separator: "/").map(String.init) }, "no first message")
            // Two leases and more later, with the turn still going: a lease its node did not renew has lapsed by now.
            try await Task.sleep(for: .seconds(11))
            let kept = try await harness.redisNamespace.mcp.lastMessage(session: session.id, stream: dropped[0])
            try #require(kept?.isFinal == false, "the turn ended before it outlived the lease")
            var messages: [JSONValue] = []
            try await RawMCPSession.read(try await session.resume(after: dropped.joined(separator: "/"))) { messages.append($0) }
            #expect(messages.last?["id"] == .string("turn-1"))
            #expect(messages.last?["result"]?["structuredContent"]?["scene"] != nil, "the turn's response: \(String(describing: messages.last))")
            #expect(messages.dropLast().allSatisfy { $0["method"] == "notifications/progress" })
        }
    }

    @Test func aResumedAnswerWaitsForALiveNodeAndEndsWithAnErrorWhenItsNodeIsGone() async throws {
        try await Harness.with { harness in
            try harness.usePolicies(Self.policies(resource: Self.resource), environment: [Self.secretVariable: Self.secret])
            _ = try await harness.tenant("worldarchitect")
            let endpoint = try await harness.startAPI() + "/mcp/worldarchitect"
            let client = try await RawMCPSession.open(harness, endpoint: endpoint, token: try Self.token(audience: Self.resource))
            let session = client.id
            let sessions = harness.redisNamespace.mcp
            func progress(_ value: Int) -> String {
                #"{"jsonrpc":"2.0","method":"notifications/progress","params":{"message":"part \#(value)","progress":\#(value),"progressToken":"p"}}"#
            }
            // A node still writing its answer: the resumed stream waits for it, and gets its response.
            let live = String(repeating: "a", count: 32)
            try await sessions.begin(request: #""turn-8""#, session: session, stream: live, lease: .seconds(30))
            let seen = try await sessions.append(progress(1), isFinal: false, session: session, stream: live)
            _ = try await sessions.append(progress(2), isFinal: false, session: session, stream: live)
            var received: [JSONValue] = []
            try await RawMCPSession.read(try await client.resume(after: "\(live)/\(seen)")) { message in
                received.append(message)
                if message["method"] == "notifications/progress" {
                    let response = #"{"id":"turn-8","jsonrpc":"2.0","result":{"content":[]}}"#
                    _ = try await sessions.append(response, isFinal: true, session: session, stream: live)
                }
            }
            #expect(received.map { $0["params"]?["progress"] ?? $0["id"] } == [.number(2), .string("turn-8")])
            #expect(received.last?["result"] != nil, "the live node's response, not an error: \(received)")

            // A node that died mid-answer (its lease lapsed): the rest of what it kept, then an error naming the request.
            let gone = String(repeating: "b", count: 32)
            try await sessions.begin(request: #""turn-9""#, session: session, stream: gone, lease: .seconds(30))
            let before = try await sessions.append(progress(1), isFinal: false, session: session, stream: gone)
            _ = try await sessions.append(progress(2), isFinal: false, session: session, stream: gone)
            _ = try await harness.redis.send(["DEL", harness.redisNamespace.shards.control.mcpProducer(session, gone)])
            received = []
            try await RawMCPSession.read(try await client.resume(after: "\(gone)/\(before)")) { received.append($0) }
            #expect(received.count == 2 && received.first?["params"]?["progress"] == .number(2))
            #expect(received.last?["id"] == .string("turn-9"))
            #expect(received.last?["error"]?["code"] == .number(-32603))
            #expect(received.last?["error"]?["message"]?.stringValue?.contains("idempotency_key") == true)
            // The error is kept as the answer's response: another resumption gets the same, and ends.
            // Kept messages come at once: a follower first reads what the stream holds.
            let kept = try await sessions.followMessages(session: session, stream: gone, after: try #require(StreamID(before))) {
                try await $0.next(timeout: .seconds(30))
            }
            #expect(kept.last?.isFinal == true && kept.filter(\.isFinal).count == 1)
        }
    }

    /// The local stack's way in, as `deploy/local/up.sh` sets it up: `kiln-dev mcp keys` makes the development key set,
    /// `deploy/local/dev-policies.py` gives it to `worldarchitect` in the policies a `kiln api` reads, and a token from
    /// `kiln-dev mcp token` lets the demo client (`deploy/local/mcp-demo.py`, the official Python SDK) open a campaign.
    /// A token signed with another key is refused.
    @Test func aDevelopmentTokenOpensACampaignThroughTheDemoClient() async throws {
        try await Harness.with { harness in
            let root = TestServers.repositoryRoot
            let keys = FileManager.default.temporaryDirectory.appendingPathComponent("mcp-dev-\(UUID().uuidString)")
            defer { try? FileManager.default.removeItem(at: keys) }
            let kilnDev = try TestServers.executable("kiln-dev").path
            let keySet = try await Self.output(of: [kilnDev, "mcp", "keys", "--keys", keys.path]).trimmingCharacters(in: .whitespacesAndNewlines)
            let policies = keys.appendingPathComponent("policies.json")
            _ = try await Self.output(of: [
                "python3", root.appendingPathComponent("deploy/local/dev-policies.py").path,
                root.appendingPathComponent("deploy/policies.json").path, policies.path, "worldarchitect", keySet,
            ])
            try await ProviderJobTests.startProviders(harness)
            try harness.usePolicies(String(decoding: try Data(contentsOf: policies), as: UTF8.self), environment: ProcessInfo.processInfo.environment)
            _ = try await harness.tenant("worldarchitect")
            let api = try APIProcess(try harness.kilnCommand([]), policies: policies)
            try #require(try await api.waitUntilReady(within: .seconds(60), http: harness.http))
            let endpoint = api.url + "/mcp/worldarchitect"

            let token = try await Self.output(of: [
                kilnDev, "mcp", "token", "--identity", "player-7", "--keys", keys.path, "--policies", policies.path,
            ]).trimmingCharacters(in: .whitespacesAndNewlines)
            let demo = try await Self.output(of: ["python3", root.appendingPathComponent("deploy/local/mcp-demo.py").path, endpoint, token])
            #expect(demo.contains("create_campaign, export_campaign"), "\(demo)")
            // The campaign and its scene, printed as indented JSON after the narrative.
            let printed = try #require(demo.range(of: "\n{\n"), "\(demo)")
            let opened = try #require(JSONValue.parse(String(demo[printed.lowerBound...])), "\(demo)")
            #expect(opened["scene"]?["number"] == 1, "\(demo)")
            #expect(opened["campaign"]?["title"] == "The Drowned Bells")

            let otherKeys = keys.appendingPathComponent("other")
            let forged = try await Self.output(of: [
                kilnDev, "mcp", "token", "--identity", "player-7", "--keys", otherKeys.path, "--policies", policies.path,
            ]).trimmingCharacters(in: .whitespacesAndNewlines)
            let refused = try await harness.http.execute(
                HTTPRequest(
                    method: "POST", url: endpoint, headers: ["Authorization": "Bearer \(forged)", "Content-Type": "application/json"],
                    body: Array(#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18"}}"#.utf8)))
            #expect(refused.status == 401)
        }
    }

    /// Arguments a tool's own input schema refuses are refused before the tool runs: JSON-RPC's Invalid params (-32602)
    /// naming the argument, and nothing charged; arguments that are not an object are Invalid params too.
    @Test func argumentsAreCheckedAgainstTheToolsOwnSchemaBeforeAnythingRunsOrIsCharged() async throws {
        try await Harness.with { harness in
            // One text job a day: a refused call that was charged would leave none for the valid one at the end.
            let endpoint = try await Self.start(harness, textPerDay: 1)
            let session = try await RawMCPSession.open(harness, endpoint: endpoint, token: try Self.token(audience: Self.resource))
            #expect(session.revision == "2025-06-18")
            let refused: [(tool: String, arguments: String, field: String)] = [
                ("create_campaign", #"{"setting":"A salt desert.","character":{"name":"Ona"},"difficulty":"hard"}"#, "difficulty"),
                ("create_campaign", #"{"setting":"A salt desert.","character":{"name":"Ona","age":30}}"#, "character.age"),
                ("create_campaign", #"{"character":{"name":"Ona"}}"#, "setting"),
                ("create_campaign", #"{"setting":5,"character":{"name":"Ona"}}"#, "setting"),
                ("create_campaign", #"{"setting":"","character":{"name":"Ona"}}"#, "setting"),
                ("create_campaign", #"{"setting":"A salt desert.","character":"Ona"}"#, "character"),
                ("list_campaigns", #"{"limit":0}"#, "limit"),
                ("export_campaign", #"{"campaign_id":"b5910d6e-7a43-4c1e-9a51-0f1c2d3e4f50","format":"epub"}"#, "format"),
            ]
            for (tool, arguments, field) in refused {
                let answer = try await session.call(tool, arguments)
                #expect(answer?["error"]?["code"] == -32602, "\(tool) \(arguments): \(String(describing: answer))")
                #expect(answer?["error"]?["message"]?.stringValue?.contains(": \(field) ") == true, "\(String(describing: answer))")
                #expect(answer?["id"] == "call")
            }
            // Arguments that are not an object are not a tool call's.
            for arguments in [#""A salt desert.""#, #"["A salt desert."]"#, "5", "true"] {
                let answer = try await session.call("create_campaign", arguments)
                #expect(answer?["error"]?["code"] == -32602, "\(arguments): \(String(describing: answer))")
                #expect(answer?["error"]?["message"]?.stringValue?.contains("arguments") == true)
            }
            // Nothing ran and nothing was charged: the day's one text job opens the campaign, and it is the only one.
            let opened = try await session.call("create_campaign", #"{"setting":"A salt desert.","character":{"name":"Ona"}}"#)
            #expect(opened?["result"]?["isError"] != true, "\(String(describing: opened))")
            let listed = try await session.call("list_campaigns", "{}")
            #expect(listed?["result"]?["structuredContent"]?["campaigns"]?.arrayValue?.count == 1, "\(String(describing: listed))")
        }
    }

    /// `initialize` is answered with a revision Kiln serves: the one asked for when Kiln serves it, else the latest it
    /// serves (never 2025-03-26, whose batches Kiln does not take). Each revision Kiln accepts then serves a session,
    /// with invalid arguments answered as that revision says: a tool error from 2025-11-25 on, so the model reads what
    /// to fix.
    @Test func initializeAnswersWithARevisionKilnServesAndEachServesASession() async throws {
        try await Harness.with { harness in
            let endpoint = try await Self.start(harness)
            let token = try Self.token(audience: Self.resource)
            let asked = [
                "2025-11-25": "2025-11-25", "2025-06-18": "2025-06-18", "2025-03-26": "2025-11-25", "2024-11-05": "2025-11-25",
                "2031-01-01": "2025-11-25",
            ]
            for (requested, served) in asked.sorted(by: { $0.key < $1.key }) {
                let session = try await RawMCPSession.open(harness, endpoint: endpoint, token: token, revision: requested)
                #expect(session.revision == served, "asked for \(requested)")
            }
            for revision in ["2025-06-18", "2025-11-25"] {
                let session = try await RawMCPSession.open(harness, endpoint: endpoint, token: token, revision: revision)
                let tools = try await session.post(#"{"jsonrpc":"2.0","id":2,"method":"tools/list"}"#)
                #expect(tools?["result"]?["tools"]?.arrayValue?.count == 6, "\(revision)")
                let batch = try await session.post(#"[{"jsonrpc":"2.0","id":3,"method":"ping"}]"#)
                #expect(batch?["error"]?["code"] == -32600, "\(revision) has no batches")
                let invalid = try await session.call(
                    "create_campaign", #"{"setting":"A salt desert.","character":{"name":"Ona"},"difficulty":"hard"}"#)
                if revision == "2025-06-18" {
                    #expect(invalid?["error"]?["code"] == -32602, "\(String(describing: invalid))")
                } else {
                    #expect(invalid?["result"]?["isError"] == true, "\(String(describing: invalid))")
                    #expect(invalid?["result"]?["structuredContent"]?["code"] == "invalid_input")
                    #expect(invalid?["result"]?["structuredContent"]?["field"] == "difficulty")
                }
                let opened = try await session.call("create_campaign", #"{"setting":"A salt desert.","character":{"name":"Ona"}}"#)
                #expect(opened?["result"]?["structuredContent"]?["scene"]?["number"] == 1, "\(revision): \(String(describing: opened))")
            }
        }
    }

    @Test func resumingAnAnswerTheSessionDoesNotHaveIsRefusedAtOnce() async throws {
        try await Harness.with { harness in
            let endpoint = try await Self.start(harness)
            let session = try await RawMCPSession.open(harness, endpoint: endpoint, token: try Self.token(audience: Self.resource))
            let other = try await RawMCPSession.open(harness, endpoint: endpoint, token: try Self.token("player-2", audience: Self.resource))
            let sessions = harness.redisNamespace.mcp
            // An answer of each session's, as a streamed tool call keeps them: one message so far, the response to come.
            let progress = #"{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":"p","progress":1}}"#
            let mine = "0123456789abcdef0123456789abcde1"
            let kept = try await sessions.append(progress, isFinal: false, session: session.id, stream: mine)
            let theirs = "0123456789abcdef0123456789abcde2"
            let theirsKept = try await sessions.append(progress, isFinal: false, session: other.id, stream: theirs)
            let anHourAhead = "\(UInt64(Date().timeIntervalSince1970 * 1000) + 3_600_000)-0"
            for lastEventID in [
                "0123456789abcdef0123456789abcdef/1764129000000-0",  // an answer no session had
                "\(theirs)/\(theirsKept)",  // another session's
                "\(mine)/\(anHourAhead)",  // past the end of this session's own answer
            ] {
                let answer = try await session.resume(after: lastEventID)
                #expect(answer.status == 400, "\(lastEventID): \(answer.status)")
            }
            // This session's own answer, from a place it sent, is followed.
            let resumed = try await session.resume(after: "\(mine)/\(kept)")
            #expect(resumed.status == 200)
        }
    }

    @Test func refusalsAreTheSpecsAnswers() async throws {
        try await Harness.with { harness in
            let endpoint = try await Self.start(harness, textPerDay: 1)
            let token = try Self.token(audience: Self.resource)
            func post(
                _ body: String, token: String?, session: String? = nil, headers extra: [String: String] = [:]
            ) async throws -> (
                status: Int, json: JSONValue?, headers: [String: String]
            ) {
                var headers: HTTPHeaders = ["Content-Type": "application/json", "Accept": "application/json, text/event-stream"]
                if let token { headers.add(name: "Authorization", value: "Bearer \(token)") }
                if let session { headers.add(name: "Mcp-Session-Id", value: session) }
                for (name, value) in extra { headers.add(name: name, value: value) }
                let response = try await harness.http.execute(
                    HTTPRequest(method: "POST", url: endpoint, headers: headers, body: Array(body.utf8)), timeout: .seconds(60))
                var text = String(decoding: response.body, as: UTF8.self)
                // An SSE answer's last data line is the response.
                if let data = text.split(separator: "\n").last(where: { $0.hasPrefix("data: ") }) { text = String(data.dropFirst(6)) }
                var fields: [String: String] = [:]
                for (name, value) in response.headers { fields[name.lowercased()] = value }
                return (response.status, JSONValue.parse(text), fields)
            }
            let initialize =
                #"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}"#

            let anonymous = try await post(initialize, token: nil)
            #expect(anonymous.status == 401)
            #expect(anonymous.headers["www-authenticate"]?.contains("resource_metadata=\"") == true)
            let metadataPath = "/.well-known/oauth-protected-resource/mcp/worldarchitect"
            #expect(anonymous.headers["www-authenticate"]?.contains("https://kiln.test" + metadataPath) == true, "\(anonymous.headers)")
            let metadata = try await harness.http.execute(
                HTTPRequest(method: "GET", url: try harness.apiURL + metadataPath, headers: [:], body: nil), timeout: .seconds(10))
            let document = JSONValue.parse(String(decoding: metadata.body, as: UTF8.self))
            #expect(document?["resource"]?.stringValue == Self.resource)
            #expect(document?["authorization_servers"]?.arrayValue == [.string(Self.issuer)])

            // A token for the app's sign-in, not for this resource, is refused like a forged one.
            let wrongAudience = try await post(initialize, token: try Self.token(audience: "worldarchitect-app"))
            #expect(wrongAudience.status == 401 && wrongAudience.headers["www-authenticate"]?.contains("invalid_token") == true)

            let initialized = try await post(initialize, token: token)
            #expect(initialized.status == 200)
            let session = try #require(initialized.headers["mcp-session-id"])

            let malformed = try await post("{not json", token: token, session: session)
            #expect(malformed.status == 400 && malformed.json?["error"]?["code"] == -32700)
            #expect(malformed.json?["id"] == .some(.null), "a parse error answers with a null id, as JSON-RPC asks")
            let batch = try await post("[\(initialize)]", token: token, session: session)
            #expect(batch.status == 400 && batch.json?["error"]?["code"] == -32600)
            // Every message JSON-RPC calls an Invalid Request is answered so, at once, with its id when it has a valid one
            // (an id that is an object, an array, a boolean, a fraction or null is none).
            let invalid: [(body: String, id: JSONValue)] = [
                (#"{"jsonrpc":"2.0","id":{"a":1},"method":"ping"}"#, .null), (#"{"jsonrpc":"2.0","id":[1],"method":"ping"}"#, .null),
                (#"{"jsonrpc":"2.0","id":true,"method":"ping"}"#, .null), (#"{"jsonrpc":"2.0","id":1.5,"method":"ping"}"#, .null),
                (#"{"jsonrpc":"2.0","id":null,"method":"tools/list"}"#, .null), (#"{"foo":1}"#, .null), (#"{"jsonrpc":"2.0","id":7}"#, 7),
                (#"{"jsonrpc":"2.0","id":8,"method":5}"#, 8), (#"{"jsonrpc":"1.0","id":9,"method":"ping"}"#, 9), ("5", .null),
                (#""ping""#, .null),
            ]
            for (body, id) in invalid {
                let answer = try await post(body, token: token, session: session)
                #expect(
                    answer.status == 400 && answer.json?["error"]?["code"] == -32600, "\(body): \(answer.status) \(String(describing: answer.json))")
                #expect(answer.json?["id"] == .some(id), "\(body)")
            }
            let objectIDInitialize = try await post(initialize.replacingOccurrences(of: #""id":1"#, with: #""id":{"a":1}"#), token: token)
            #expect(objectIDInitialize.status == 400 && objectIDInitialize.json?["error"]?["code"] == -32600)
            #expect(objectIDInitialize.headers["mcp-session-id"] == nil, "an invalid initialize opens no session")
            let noSession = try await post(#"{"jsonrpc":"2.0","id":2,"method":"tools/list"}"#, token: token)
            #expect(noSession.status == 400)
            let wrongVersion = try await post(
                #"{"jsonrpc":"2.0","id":2,"method":"tools/list"}"#, token: token, session: session, headers: ["MCP-Protocol-Version": "1999-01-01"])
            #expect(wrongVersion.status == 400)
            let unknownTool = try await post(
                #"{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"cast_spell","arguments":{}}}"#, token: token, session: session)
            #expect(unknownTool.json?["error"]?["code"] == -32602, "\(String(describing: unknownTool.json))")
            // Another player's token does not open this player's session.
            let stranger = try await post(
                #"{"jsonrpc":"2.0","id":4,"method":"tools/list"}"#, token: try Self.token("player-2", audience: Self.resource), session: session)
            #expect(stranger.status == 404)

            let create =
                #"{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"create_campaign","arguments":{"setting":"A salt desert.","character":{"name":"Ona"}}}}"#
            let created = try await post(create, token: token, session: session)
            #expect(created.json?["result"]?["isError"] != true, "\(String(describing: created.json))")
            let campaign = try #require(created.json?["result"]?["structuredContent"]?["campaign"]?["id"]?.stringValue)
            // The day's one text job is spent: the next is a tool error with the HTTP API's code and when to retry.
            let refused = try await post(create.replacingOccurrences(of: "\"id\":5", with: "\"id\":6"), token: token, session: session)
            #expect(refused.json?["result"]?["isError"] == true)
            #expect(refused.json?["result"]?["structuredContent"]?["code"] == "daily_quota_exhausted", "\(String(describing: refused.json))")
            #expect((refused.json?["result"]?["structuredContent"]?["retry_after"]?.intValue ?? 0) > 0)

            // Another identity's campaign is not found, and nothing of it shows.
            let other = try await post(initialize, token: try Self.token("player-2", audience: Self.resource))
            let otherSession = try #require(other.headers["mcp-session-id"])
            let peek = try await post(
                #"{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"get_campaign_state","arguments":{"campaign_id":"\#(campaign)"}}}"#,
                token: try Self.token("player-2", audience: Self.resource), session: otherSession)
            #expect(peek.json?["result"]?["isError"] == true)
            #expect(peek.json?["result"]?["structuredContent"]?["code"] == "campaign_not_found")
            #expect(peek.json.map { !$0.canonicalJSON().contains("salt desert") } == true)
            let read = try await post(
                #"{"jsonrpc":"2.0","id":8,"method":"resources/read","params":{"uri":"campaign://\#(campaign)"}}"#,
                token: try Self.token("player-2", audience: Self.resource), session: otherSession)
            #expect(read.json?["error"]?["code"] == -32002)
        }
    }
}
