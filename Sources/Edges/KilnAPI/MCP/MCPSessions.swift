public import KilnCore
public import KilnQueue

/// MCP's state, shared by every API node: ``MCPSessionStore`` in Redis.
public protocol MCPSessions: Sendable {
    func open(_ id: String, _ session: MCPSessionStore.Session) async throws
    func touch(_ id: String) async throws -> MCPSessionStore.Session?
    func close(_ id: String) async throws
    func begin(request: String, session: String, stream: String, lease: Duration) async throws
    func renewProducer(session: String, stream: String, lease: Duration) async throws
    func abandoned(session: String, stream: String) async throws -> String?
    func append(_ json: String, isFinal: Bool, session: String, stream: String) async throws -> String
    func lastMessage(session: String, stream: String) async throws -> MCPSessionStore.StreamedMessage?
    func followMessages<Result>(
        session: String, stream: String, after: StreamID, _ body: (MCPSessionStore.AnswerFollower) async throws -> Result
    ) async throws -> Result
    func bind(request: String, session: String, to job: JobID) async throws
    func job(of request: String, session: String) async throws -> JobID?
}

extension MCPSessionStore: MCPSessions {}
