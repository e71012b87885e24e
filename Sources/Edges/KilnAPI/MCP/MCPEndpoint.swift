import Foundation
import HTTPTypes
import Hummingbird
import KilnCore
import KilnIdentity
import KilnJSON
import KilnPolicy
import KilnQueue
import KilnStore
import MCP
import NIOCore

/// One request to a tenant's MCP endpoint, checked as MCP's authorization asks of a resource server: the endpoint
/// exists, the browser origin (if any) is allowed, and the bearer token is the tenant's JWT issued for this resource.
/// Every request is checked; a session never stands in for a token.
struct MCPEndpoint {
    let caller: Caller
    private let sessions: any MCPSessions

    /// - Throws: an ``MCPRefusal``: 404 for a tenant without an endpoint, 403 for a foreign origin, 401 (with the
    ///   `WWW-Authenticate` challenge that names the metadata) for a missing or invalid token.
    init(_ request: Request, _ context: some Hummingbird.RequestContext, dependencies: APIDependencies) async throws {
        guard let tenantID = context.parameters.get("tenant").flatMap(TenantID.init(validating:)),
            let settings = dependencies.policies[tenantID]?.mcp, let verifier = dependencies.identities[tenantID]
        else { throw MCPRefusal(.notFound, .invalidRequest("no MCP endpoint here")) }
        if let origin = request.headers[.origin], !settings.allowedOrigins.contains(origin) {
            throw MCPRefusal(.forbidden, .invalidRequest("requests from the origin \(origin) are not allowed"))
        }
        guard let authorization = request.headers[.authorization], authorization.hasPrefix("Bearer "),
            case let token = String(authorization.dropFirst("Bearer ".count)), !token.isEmpty
        else { throw MCPRefusal.unauthorized(settings, error: nil) }
        let identity: VerifiedIdentity
        do {
            identity = try await verifier.verifyMCPToken(token, now: dependencies.clock())
        } catch let error as IdentityError {
            throw MCPRefusal.unauthorized(settings, error: error.message)
        }
        guard let tenant = try await dependencies.tenants.find(id: tenantID) else {
            throw MCPRefusal(.notFound, .invalidRequest("no MCP endpoint here"))
        }
        self.caller = Caller(tenant: tenant, identity: identity.identity)
        self.sessions = dependencies.mcpSessions
    }

    /// The request's session: named by `Mcp-Session-Id`, alive, the caller's own, and of the protocol version the
    /// request names (when it names one).
    func session(of request: Request) async throws -> (id: String, state: MCPSessionStore.Session) {
        guard let id = request.headers[.mcpSessionID] else {
            throw MCPRefusal(.badRequest, .invalidRequest("send the Mcp-Session-Id that initialize answered with"))
        }
        // Another identity's session is as unknown as an ended one.
        guard Self.isSessionID(id), let session = try await sessions.touch(id), session.tenant == caller.tenant.id,
            session.identity == caller.identity
        else { throw MCPRefusal(.notFound, .invalidRequest("no such session: initialize a new one")) }
        if let version = request.headers[.mcpProtocolVersion], version != session.protocolVersion {
            throw MCPRefusal(.badRequest, .invalidRequest("this session speaks MCP \(session.protocolVersion), not \(version)"))
        }
        return (id, session)
    }

    /// 128 random bits in hex: a session's id, and an answer stream's.
    static func newSessionID() -> String {
        RandomSecret.hex(byteCount: 16)
    }

    private static func isSessionID(_ text: String) -> Bool {
        text.utf8.count == 32 && text.allSatisfy(\.isHexDigit)
    }
}

/// An MCP request refused before any JSON-RPC method ran: an HTTP status with a JSON-RPC error whose id is null (the
/// message's own is unknown or unread).
struct MCPRefusal: Error {
    let status: HTTPResponse.Status
    let error: MCPError
    var headers: HTTPFields = [:]
    /// The id of the request refused, when it had a valid one.
    var id: JSONValue = .null

    init(_ status: HTTPResponse.Status, _ error: MCPError) {
        self.status = status
        self.error = error
    }

    /// 401 with the challenge MCP's authorization asks for: where the Protected Resource Metadata is.
    static func unauthorized(_ settings: MCPSettings, error reason: String?) -> MCPRefusal {
        var refusal = MCPRefusal(
            .unauthorized, .invalidRequest(reason ?? "send the app's token for this endpoint as 'Authorization: Bearer <token>'"))
        var challenge = "Bearer resource_metadata=\"\(settings.metadataURL)\""
        if reason != nil { challenge += ", error=\"invalid_token\"" }
        refusal.headers[.wwwAuthenticate] = challenge
        return refusal
    }

    var response: Response {
        var headers = self.headers
        headers[.contentType] = "application/json"
        let body = JSONRPCErrorAnswer(error: .init(code: error.code, message: error.errorDescription ?? "\(error)"), id: id)
        return Response(status: status, headers: headers, body: ResponseBody(byteBuffer: (try? AnswerEncoding.bytes(of: body)) ?? ByteBuffer()))
    }
}

/// `{"jsonrpc": "2.0", "error": {"code", "message"}, "id": …}`: the request's id, or null when the request is not
/// known.
struct JSONRPCErrorAnswer: Encodable {
    struct Failure: Encodable {
        let code: Int
        let message: String
    }

    let jsonrpc = "2.0"
    let error: Failure
    var id: JSONValue = .null
}
