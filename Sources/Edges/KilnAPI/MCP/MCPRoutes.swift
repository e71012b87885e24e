import Foundation
import HTTPTypes
import Hummingbird
import KilnCore
import KilnIdentity
import KilnJSON
import KilnPolicy
import KilnQueue
import KilnStore
import Logging
import MCP
import NIOCore

/// A tenant's MCP endpoint, `/mcp/{tenant}`, on MCP's Streamable HTTP transport (in the revisions ``MCPRevisions``
/// serves, docs/mcp.md): `POST` a JSON-RPC message (a tool call with a progress token answers with SSE, its progress
/// first; anything else with JSON), `GET` a stream (resuming an answer with `Last-Event-ID`), `DELETE` to end the
/// session. Every request carries the app's JWT for this endpoint, verified as the tenant's `jwt` mode does; sessions
/// and answers live in Redis, so any API node serves any request.
struct MCPRoutes<Context: Hummingbird.RequestContext> {
    let dependencies: APIDependencies
    let configuration: APIConfiguration
    /// The event streams the node serves at once: each `GET` stream is one.
    let followers: FollowerCaps

    /// How long a resumed or standalone stream waits for a message before it sends a keep-alive comment.
    static var heartbeat: Duration { .seconds(15) }

    func register(on router: some RouterMethods<Context>) {
        router.post("mcp/{tenant}", use: post)
        router.get("mcp/{tenant}", use: get)
        router.delete("mcp/{tenant}", use: delete)
        router.get(".well-known/oauth-protected-resource/mcp/{tenant}", use: metadata)
    }

    // MARK: The endpoint's requests

    @Sendable func post(_ request: Request, context: Context) async throws -> Response {
        let endpoint: MCPEndpoint
        do {
            endpoint = try await MCPEndpoint(request, context, dependencies: dependencies)
        } catch let refusal as MCPRefusal {
            return refusal.response
        }
        var request = request
        let body = try await request.collectBody(within: configuration.maxJobBodyBytes)
        let data = Data(body.readableBytesView)
        guard let message = JSONValue.parse(String(decoding: data, as: UTF8.self)) else {
            return MCPRefusal(.badRequest, .parseError("the body must be one JSON-RPC message")).response
        }
        let envelope: JSONRPCEnvelope
        do {
            envelope = try JSONRPCEnvelope(message)
        } catch {
            return error.response
        }
        if case .request(Initialize.name, let id) = envelope {
            let negotiating = Data(MCPRevisions.negotiating(message).canonicalJSON().utf8)
            return try await initialize(negotiating, id: id, endpoint: endpoint, logger: context.logger)
        }
        let session: (id: String, state: MCPSessionStore.Session)
        do {
            session = try await endpoint.session(of: request)
        } catch let refusal as MCPRefusal {
            return refusal.response
        }
        let method: String
        let id: JSONValue
        switch envelope {
        case .response:
            return Response(status: .accepted)  // A response to a request of ours: Kiln sends none.
        case .notification(let name):
            if name == CancelledNotification.name, let requestID = message["params"]?["requestId"] {
                try await cancel(requestID.canonicalJSON(), session: session.id, endpoint: endpoint)
            }
            return Response(status: .accepted)
        case .request(let name, let requestID):
            (method, id) = (name, requestID)
        }
        if method == CallTool.name, let refusal = try Self.refusedArguments(message["params"], id: id, session: session) {
            return refusal
        }
        let call = MCPCall(
            dependencies: dependencies, caller: endpoint.caller, session: session.id, requestID: id.canonicalJSON(),
            exchange: MCPExchange(message: data, logger: context.logger), logger: context.logger)
        let server = try await Self.server(for: call)
        // SSE only when there is something to stream before the response: a tool call asking for progress.
        let streams =
            method == CallTool.name && message["params"]?["_meta"]?["progressToken"] != nil
            && request.headers[.accept]?.contains("text/event-stream") == true
        return streams
            ? try await Self.streamed(
                call, server: server, sessionID: session.id, sessions: dependencies.mcpSessions, lease: configuration.mcpAnswerLease)
            : try await Self.answered(call, server: server, sessionID: session.id)
    }

    /// A `tools/call` whose params are not a tool call's, or whose arguments the tool's input schema refuses, answered
    /// before anything runs or is charged: JSON-RPC's Invalid params (-32602), naming the argument; in a revision that
    /// reports a tool's invalid arguments as a tool error (``MCPRevisions``), a tool result with `isError`, whose
    /// `structuredContent` is the HTTP API's `invalid_input` problem. Nil when the call may run.
    private static func refusedArguments(
        _ params: JSONValue?, id: JSONValue, session: (id: String, state: MCPSessionStore.Session)
    ) throws -> Response? {
        let requestID: ID = id.stringValue.map(ID.string) ?? .number(id.intValue ?? 0)
        let answer: MCP.Response<CallTool>
        do {
            guard let violation = try CampaignToolDefinitions.violation(inCall: params) else { return nil }
            answer =
                MCPRevisions.refusesArgumentsInToolResult(session.state.protocolVersion)
                ? MCP.Response(id: requestID, result: try MCPCall.refusal(.invalidInput(violation)))
                : MCP.Response(id: requestID, error: .invalidParams(violation.description))
        } catch let error as MCPError {
            answer = MCP.Response(id: requestID, error: error)
        }
        return Response(
            status: .ok, headers: [.contentType: "application/json", .mcpSessionID: session.id],
            body: ResponseBody(byteBuffer: ByteBuffer(bytes: try JSONEncoder().encode(answer))))
    }

    /// `initialize`, asking for the revision Kiln negotiated: the SDK's server answers, then the session opens in Redis,
    /// bound to the caller, in that revision.
    private func initialize(_ data: Data, id: JSONValue, endpoint: MCPEndpoint, logger: Logger) async throws -> Response {
        let call = MCPCall(
            dependencies: dependencies, caller: endpoint.caller, session: "", requestID: id.canonicalJSON(),
            exchange: MCPExchange(message: data, logger: logger), logger: logger)
        let server = try await Self.server(for: call)
        guard let answer = await Self.response(of: call.exchange) else { return Response(status: .accepted) }
        await server.stop()
        var headers: HTTPFields = [.contentType: "application/json"]
        if let version = JSONValue.parse(String(decoding: answer, as: UTF8.self))?["result"]?["protocolVersion"]?.stringValue {
            let sessionID = MCPEndpoint.newSessionID()
            try await dependencies.mcpSessions.open(
                sessionID, MCPSessionStore.Session(tenant: endpoint.caller.tenant.id, identity: endpoint.caller.identity, protocolVersion: version))
            headers[.mcpSessionID] = sessionID
        }
        return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(bytes: answer)))
    }

    /// `notifications/cancelled`, which may reach another node than the request: the request's job is cancelled, and
    /// the node following it ends the request without a response.
    private func cancel(_ requestID: String, session: String, endpoint: MCPEndpoint) async throws {
        guard let job = try await dependencies.mcpSessions.job(of: requestID, session: session) else { return }
        _ = try await dependencies.queue.cancel(job, tenant: endpoint.caller.tenant.id, identity: endpoint.caller.identity)
    }

    @Sendable func get(_ request: Request, context: Context) async throws -> Response {
        let endpoint: MCPEndpoint
        let session: (id: String, state: MCPSessionStore.Session)
        do {
            endpoint = try await MCPEndpoint(request, context, dependencies: dependencies)
            session = try await endpoint.session(of: request)
        } catch let refusal as MCPRefusal {
            return refusal.response
        }
        guard request.headers[.accept]?.contains("text/event-stream") == true else {
            return MCPRefusal(.notAcceptable, .invalidRequest("GET answers text/event-stream only")).response
        }
        let sessions = dependencies.mcpSessions
        let slot: FollowerSlot
        do {
            slot = try followers.admit(tenant: endpoint.caller.tenant.id, identity: endpoint.caller.identity)
        } catch let problem as Problem {
            var refusal = MCPRefusal(problem.status, .internalError(problem.detail))
            refusal.headers = problem.headers
            return refusal.response
        }
        guard let lastEventID = request.headers[.lastEventID] else {
            // The server's own stream: Kiln sends nothing there unprompted; it stays open, with keep-alives, while the
            // session lives and the node runs.
            return Self.eventStream(session: session.id) { writer in
                defer { withExtendedLifetime(slot) {} }
                while try await sessions.touch(session.id) != nil {
                    try await writer.write(ByteBuffer(string: ": keep-alive\n\n"))
                    guard try await unlessShuttingDown({ try await Task.sleep(for: Self.heartbeat) }) != nil else { return }
                }
            }
        }
        guard let cursor = MCPEventID(lastEventID), let position = StreamID(cursor.position) else {
            return MCPRefusal(.badRequest, .invalidRequest("Last-Event-ID is not an event id this server sent")).response
        }
        // An answer the session does not have (never had, another session's, expired), or a place past its end, can
        // never bring anything: refused at once rather than followed for ever.
        guard let last = try await sessions.lastMessage(session: session.id, stream: cursor.stream), let end = StreamID(last.id), position <= end
        else { return MCPRefusal(.badRequest, .invalidRequest("Last-Event-ID names no message of an answer of this session")).response }
        return Self.eventStream(session: session.id) { writer in
            defer { withExtendedLifetime(slot) {} }
            // After the response: the answer is whole.
            if position == end, last.isFinal { return }
            try await sessions.followMessages(session: session.id, stream: cursor.stream, after: position) { follower in
                // Nothing after the client's place yet, or for a heartbeat: perhaps the writer is gone.
                var quiet = position == end
                while true {
                    if quiet, let request = try await sessions.abandoned(session: session.id, stream: cursor.stream) {
                        // The node writing the answer stopped before its response and nothing will come: say so.
                        let json = try Self.abandonedAnswer(request)
                        let kept = try await sessions.append(json, isFinal: true, session: session.id, stream: cursor.stream)
                        try await writer.write(ByteBuffer(string: Self.event(MCPEventID(stream: cursor.stream, position: kept), json)))
                        return
                    }
                    let messages: [MCPSessionStore.StreamedMessage]
                    do {
                        guard let next = try await unlessShuttingDown({ try await follower.next(timeout: Self.heartbeat) }) else { return }
                        messages = next
                    } catch StreamFollowerError.fellBehind {
                        return
                    }
                    quiet = messages.isEmpty
                    if quiet {
                        guard try await sessions.touch(session.id) != nil else { return }
                        try await writer.write(ByteBuffer(string: ": keep-alive\n\n"))
                    }
                    for message in messages {
                        if !message.json.isEmpty {
                            try await writer.write(
                                ByteBuffer(string: Self.event(MCPEventID(stream: cursor.stream, position: message.id), message.json)))
                        }
                        if message.isFinal { return }
                    }
                }
            }
        }
    }

    @Sendable func delete(_ request: Request, context: Context) async throws -> Response {
        do {
            let endpoint = try await MCPEndpoint(request, context, dependencies: dependencies)
            let session = try await endpoint.session(of: request)
            try await dependencies.mcpSessions.close(session.id)
            return Response(status: .ok)
        } catch let refusal as MCPRefusal {
            return refusal.response
        }
    }

    /// RFC 9728's Protected Resource Metadata of the tenant's endpoint: its resource and authorization servers.
    @Sendable func metadata(_ request: Request, context: Context) async throws -> Response {
        guard let tenant = context.parameters.get("tenant").flatMap(TenantID.init(validating:)), let settings = dependencies.policies[tenant]?.mcp
        else { return MCPRefusal(.notFound, .invalidRequest("no MCP endpoint here")).response }
        return try .json(ProtectedResourceMetadata(settings), status: .ok)
    }

    // MARK: Answers

    /// A fresh SDK server for one request, with Kiln's tools and resources acting for its caller.
    private static func server(for call: MCPCall) async throws -> Server {
        let server = Server(
            name: "kiln", version: "1", title: "Kiln: WorldArchitect campaigns",
            capabilities: .init(resources: .init(subscribe: false, listChanged: false), tools: .init(listChanged: false)))
        await server.withMethodHandler(ListTools.self) { _ in ListTools.Result(tools: CampaignToolDefinitions.all) }
        await server.withMethodHandler(CallTool.self) { parameters in try await call.callTool(parameters) }
        await server.withMethodHandler(ListResources.self) { parameters in try await CampaignResources(call: call).list(cursor: parameters.cursor) }
        await server.withMethodHandler(ReadResource.self) { parameters in try await CampaignResources(call: call).read(parameters.uri) }
        await server.withMethodHandler(ListResourceTemplates.self) { _ in ListResourceTemplates.Result(templates: [CampaignResources.template]) }
        try await server.start(transport: call.exchange)
        return server
    }

    /// The server's response, once it has sent it; nil when the request ended without one (cancelled).
    private static func response(of exchange: MCPExchange) async -> Data? {
        for await message in exchange.outgoing where message.isResponse { return message.json }
        return nil
    }

    /// A request answered with JSON: its response alone.
    private static func answered(_ call: MCPCall, server: Server, sessionID: String) async throws -> Response {
        let answer = await response(of: call.exchange)
        await server.stop()
        guard let answer else { return Response(status: .accepted) }
        return Response(
            status: .ok, headers: [.contentType: "application/json", .mcpSessionID: sessionID],
            body: ResponseBody(byteBuffer: ByteBuffer(bytes: answer)))
    }

    /// A request answered with SSE: its notifications as they come, then its response. Each message is kept in Redis
    /// before it is sent, under an id that names the answer's stream, so a client that lost the connection resumes
    /// with `Last-Event-ID` on any node; the request runs on whether or not the client is still there, and this node
    /// renews its lease on the answer until the response, so that a resumed answer can tell when it never will be.
    private static func streamed(
        _ call: MCPCall, server: Server, sessionID: String, sessions: any MCPSessions, lease: Duration
    ) async throws -> Response {
        let stream = MCPEndpoint.newSessionID()
        try await sessions.begin(request: call.requestID, session: sessionID, stream: stream, lease: lease)
        let (events, sink) = AsyncStream<String>.makeStream(bufferingPolicy: .unbounded)
        Task {
            let renewal = Task {
                while (try? await Task.sleep(for: lease / 3)) != nil {
                    do {
                        try await sessions.renewProducer(session: sessionID, stream: stream, lease: lease)
                    } catch {
                        call.logger.warning("an MCP answer's lease was not renewed", metadata: ["error": "\(error)"])
                    }
                }
            }
            defer { renewal.cancel() }
            var responded = false
            for await message in call.exchange.outgoing {
                let json = String(decoding: message.json, as: UTF8.self)
                do {
                    let position = try await sessions.append(json, isFinal: message.isResponse, session: sessionID, stream: stream)
                    sink.yield(event(MCPEventID(stream: stream, position: position), json))
                } catch {
                    call.logger.warning("an MCP answer's message was not kept for resumption", metadata: ["error": "\(error)"])
                    sink.yield("event: message\ndata: \(json)\n\n")
                }
                responded = responded || message.isResponse
            }
            // Ended without a response (cancelled): a client resuming the stream must not wait for one.
            if !responded { _ = try? await sessions.append("", isFinal: true, session: sessionID, stream: stream) }
            sink.finish()
            await server.stop()
        }
        return eventStream(session: sessionID) { writer in
            for await event in events { try await writer.write(ByteBuffer(string: event)) }
        }
    }

    /// The response to a request whose answer's writer stopped before it: a JSON-RPC error that says what to do.
    private static func abandonedAnswer(_ request: String) throws -> String {
        let message =
            "the node answering this request stopped before its response; the request's job goes on: call the tool again "
            + "with the same idempotency_key to follow it, or read the campaign"
        return try AnswerEncoding.text(
            of: JSONRPCErrorAnswer(error: .init(code: MCPError.internalError(nil).code, message: message), id: JSONValue.parse(request) ?? .null))
    }

    private static func event(_ id: MCPEventID, _ json: String) -> String {
        "id: \(id.text)\nevent: message\ndata: \(json)\n\n"
    }

    private static func eventStream(session: String, _ write: @escaping @Sendable (inout any ResponseBodyWriter) async throws -> Void) -> Response {
        let body = ResponseBody { writer in
            try await write(&writer)
            try await writer.finish(nil)
        }
        return Response(
            status: .ok, headers: [.contentType: "text/event-stream", .cacheControl: "no-cache", .mcpSessionID: session], body: body)
    }
}

/// An SSE event id of an MCP answer: `<stream>/<position>`, the answer's stream and the message's place in it.
struct MCPEventID {
    let stream: String
    let position: String

    init(stream: String, position: String) {
        self.stream = stream
        self.position = position
    }

    init?(_ text: String) {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, parts[0].count == 32, parts[0].allSatisfy(\.isHexDigit),
            parts[1].split(separator: "-").count == 2, parts[1].allSatisfy({ $0.isNumber || $0 == "-" })
        else { return nil }
        stream = String(parts[0])
        position = String(parts[1])
    }

    var text: String { "\(stream)/\(position)" }
}

/// RFC 9728 §2.
private struct ProtectedResourceMetadata: Encodable {
    let resource: String
    let authorizationServers: [String]
    let bearerMethodsSupported = ["header"]
    let resourceName = "Kiln MCP"

    init(_ settings: MCPSettings) {
        resource = settings.resource.absoluteString
        authorizationServers = settings.authorizationServers
    }

    enum CodingKeys: String, CodingKey {
        case resource
        case authorizationServers = "authorization_servers"
        case bearerMethodsSupported = "bearer_methods_supported"
        case resourceName = "resource_name"
    }
}

extension HTTPField.Name {
    static let mcpSessionID = HTTPField.Name("Mcp-Session-Id")!
    static let mcpProtocolVersion = HTTPField.Name("MCP-Protocol-Version")!
}
