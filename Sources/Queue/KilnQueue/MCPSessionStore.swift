public import KilnCore
import RedisClient
import KilnKeys

/// MCP's state in Redis (docs/mcp.md), so that any API node serves any request of any session: the sessions, each
/// SSE answer's messages (capped, for resumption with `Last-Event-ID`), and the job each request in flight runs (for a
/// cancellation that reaches another node), on the control shard. Everything expires after ``MCPSessionStore/idleLifetime`` untouched.
public struct MCPSessionStore: NamespaceRole {
    /// A session as `initialize` opened it.
    public struct Session: Sendable, Equatable {
        public let tenant: TenantID
        public let identity: Identity
        /// The protocol version negotiated, which every later request must name.
        public let protocolVersion: String

        public init(tenant: TenantID, identity: Identity, protocolVersion: String) {
            self.tenant = tenant
            self.identity = identity
            self.protocolVersion = protocolVersion
        }
    }

    /// One message of an answer's stream.
    public struct StreamedMessage: Sendable, Equatable {
        /// Its place in the stream (a Redis stream id), the SSE `id` after the stream's name.
        public let id: String
        /// A JSON-RPC message.
        public let json: String
        /// Whether it is the answer's last (the response).
        public let isFinal: Bool

        init(_ entry: StreamEntry) {
            id = entry.id.description
            json = entry.field("m") ?? ""
            isFinal = entry.field("f") == "1"
        }
    }

    /// How long a session, and what it keeps, lives without a request.
    public static let idleLifetime: Duration = .seconds(3600)
    /// The most messages an answer's stream keeps: a turn streams a few hundred.
    public static let streamCap = 2_000

    let namespace: RedisNamespace

    init(_ namespace: RedisNamespace) {
        self.namespace = namespace
    }

    private var lifetime: String { String(Self.idleLifetime.components.seconds) }

    /// MCP's keys: on the control shard.
    private var keys: KeySpace { shards.control }

    public func open(_ id: String, _ session: Session) async throws {
        _ = try await redis.send([
            "SET", keys.mcpSession(id), [session.tenant.rawValue, session.identity.rawValue, session.protocolVersion].joined(separator: "\n"),
            "EX", lifetime,
        ])
    }

    /// The session, its lifetime renewed; nil when it never was, ended, or expired.
    public func touch(_ id: String) async throws -> Session? {
        guard let text = try await redis.send(["GETEX", keys.mcpSession(id), "EX", lifetime]).string else { return nil }
        let parts = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        guard parts.count == 3, let tenant = TenantID(validating: parts[0]), let identity = Identity(validating: parts[1]) else { return nil }
        return Session(tenant: tenant, identity: identity, protocolVersion: parts[2])
    }

    /// Ends the session: its later requests are answered 404. What its answers kept expires with them.
    public func close(_ id: String) async throws {
        _ = try await redis.send(["DEL", keys.mcpSession(id)])
    }

    /// Opens an answer's stream for `request` (its JSON-RPC id, as JSON) and takes the lease of the node writing it for
    /// `lease`. The stream's first entry names the request and holds no message.
    public func begin(request: String, session: String, stream: String, lease: Duration) async throws {
        let key = keys.mcpStream(session, stream)
        _ = try await redis.pipeline([
            ["XADD", key, "*", "m", "", "f", "0", "r", request],
            ["EXPIRE", key, lifetime],
            takeLease(session: session, stream: stream, lease: lease),
        ])
    }

    /// Renews the lease of the node writing the answer (``begin(request:session:stream:lease:)``) for `lease`.
    public func renewProducer(session: String, stream: String, lease: Duration) async throws {
        _ = try await redis.send(takeLease(session: session, stream: stream, lease: lease))
    }

    /// The command that takes, or renews, the writer's lease on an answer for `lease`.
    private func takeLease(session: String, stream: String, lease: Duration) -> [String] {
        ["SET", keys.mcpProducer(session, stream), "1", "PX", String(lease.milliseconds)]
    }

    /// The request of an answer whose writer let its lease lapse before the response (a node that died): its JSON-RPC
    /// id, as JSON. Nil while the writer lives, once the response is kept, and for a stream ``begin`` did not open (or
    /// whose first entry the cap trimmed).
    public func abandoned(session: String, stream: String) async throws -> String? {
        let key = keys.mcpStream(session, stream)
        let replies = try await redis.pipeline([
            ["EXISTS", keys.mcpProducer(session, stream)],
            ["XREVRANGE", key, "+", "-", "COUNT", "1"],
            ["XRANGE", key, "-", "+", "COUNT", "1"],
        ])
        // The response is kept before the lease is given back, so a lease gone with no response kept is a writer gone.
        guard replies.count == 3, replies[0].int == 0, let last = Self.parse(replies[1]).first, !last.isFinal else { return nil }
        return replies[2].streamEntries.first?.fields["r"]
    }

    /// Appends a message to an answer's stream; the response (`isFinal`) gives the writer's lease back.
    /// - Returns: its id in the stream.
    public func append(_ json: String, isFinal: Bool, session: String, stream: String) async throws -> String {
        let key = keys.mcpStream(session, stream)
        var commands = [
            ["XADD", key, "MAXLEN", "~", String(Self.streamCap), "*", "m", json, "f", isFinal ? "1" : "0"],
            ["EXPIRE", key, lifetime],
        ]
        if isFinal { commands.append(["DEL", keys.mcpProducer(session, stream)]) }
        let replies = try await redis.pipeline(commands)
        guard let id = replies.first?.string else { throw RedisError.server("ERR XADD answered without an id") }
        return id
    }

    /// The answer's last message kept; nil when the session has no such answer (it never had, it is another session's,
    /// or it expired).
    public func lastMessage(session: String, stream: String) async throws -> StreamedMessage? {
        Self.parse(try await redis.send(["XREVRANGE", keys.mcpStream(session, stream), "+", "-", "COUNT", "1"])).first
    }

    /// Follows an answer's messages after `after` for as long as `body` runs, through the node's reader of the control
    /// shard.
    public func followMessages<Result>(
        session: String, stream: String, after: StreamID, _ body: (AnswerFollower) async throws -> Result
    ) async throws -> Result {
        try await namespace.followers.follow(keys.mcpStream(session, stream), shard: 0, after: after) { follower in
            try await body(AnswerFollower(follower: follower))
        }
    }

    /// An answer's messages as they come.
    public struct AnswerFollower: Sendable {
        let follower: StreamFollower

        /// The next messages, oldest first: at once when some wait, else the first to come within `timeout`, else none.
        /// - Throws: ``StreamFollowerError/fellBehind`` when the client fell too far behind.
        public func next(timeout: Duration) async throws -> [StreamedMessage] {
            try await follower.next(timeout: timeout).map(StreamedMessage.init)
        }
    }

    /// Notes that the session's request runs `job`.
    public func bind(request: String, session: String, to job: JobID) async throws {
        _ = try await redis.send(["SET", keys.mcpRequest(session, request), job.rawValue, "EX", lifetime])
    }

    /// The job the session's request runs, if it runs one.
    public func job(of request: String, session: String) async throws -> JobID? {
        try await redis.send(["GET", keys.mcpRequest(session, request)]).string.flatMap(JobID.init(validating:))
    }

    private static func parse(_ reply: RedisValue) -> [StreamedMessage] {
        StreamEntry.entries(of: reply).map(StreamedMessage.init)
    }
}
