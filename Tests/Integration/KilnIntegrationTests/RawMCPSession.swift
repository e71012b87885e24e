import CurlClient
import KilnJSON
import KilnProviders
import Testing

/// An MCP session over plain HTTP, as a client without an SDK speaks it: `initialize` opens it, then every request
/// carries its id; a tool call with a progress token is answered with SSE, which `resume` picks up again.
struct RawMCPSession {
    let harness: Harness
    let endpoint: String
    let token: String
    /// `Mcp-Session-Id`.
    let id: String
    /// The revision of MCP the server answered `initialize` with.
    let revision: String

    /// Opens a session at `endpoint` with the app's `token`, asking for MCP `revision`.
    static func open(_ harness: Harness, endpoint: String, token: String, revision: String = "2025-06-18") async throws -> RawMCPSession {
        let initialize =
            #"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"\#(revision)","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}"#
        let response = try await harness.http.execute(
            HTTPRequest(
                method: "POST", url: endpoint, headers: Self.postHeaders(token: token, session: nil), body: Array(initialize.utf8)))
        let answered = JSONValue.parse(String(decoding: response.body, as: UTF8.self))?["result"]?["protocolVersion"]?.stringValue
        return RawMCPSession(
            harness: harness, endpoint: endpoint, token: token, id: try #require(response.headers["Mcp-Session-Id"]),
            revision: try #require(answered, "initialize answered no revision"))
    }

    /// Posts a JSON-RPC message; the JSON answer, if any.
    func post(_ body: String) async throws -> JSONValue? {
        let response = try await harness.http.execute(
            HTTPRequest(method: "POST", url: endpoint, headers: Self.postHeaders(token: token, session: id), body: Array(body.utf8)),
            timeout: .seconds(120))
        return JSONValue.parse(String(decoding: response.body, as: UTF8.self))
    }

    /// Posts a `tools/call` of `tool` with `arguments` (JSON text) as request `call`; the JSON answer, if any.
    func call(_ tool: String, _ arguments: String) async throws -> JSONValue? {
        try await post(#"{"jsonrpc":"2.0","id":"call","method":"tools/call","params":{"name":"\#(tool)","arguments":\#(arguments)}}"#)
    }

    /// Posts a request answered with SSE; its events as they come.
    func stream(_ body: String) async throws -> HTTPStreamingResponse {
        try await harness.http.stream(
            HTTPRequest(method: "POST", url: endpoint, headers: Self.postHeaders(token: token, session: id), body: Array(body.utf8)),
            timeout: .seconds(120))
    }

    /// Resumes an SSE answer after the event `lastEventID`, as a client that lost the connection does.
    func resume(after lastEventID: String) async throws -> HTTPStreamingResponse {
        let headers: HTTPHeaders = [
            "Authorization": "Bearer \(token)", "Mcp-Session-Id": id, "Accept": "text/event-stream", "Last-Event-ID": lastEventID,
        ]
        return try await harness.http.stream(HTTPRequest(url: endpoint, headers: headers), timeout: .seconds(120))
    }

    /// Reads an SSE answer to its end, calling `read` with each message.
    static func read(_ answer: HTTPStreamingResponse, _ read: (JSONValue) async throws -> Void) async throws {
        var parser = ServerSentEventParser()
        for try await chunk in answer.body {
            for event in parser.parse(chunk) { try await read(try #require(JSONValue.parse(event.data))) }
        }
    }

    private static func postHeaders(token: String, session: String?) -> HTTPHeaders {
        var headers: HTTPHeaders = [
            "Authorization": "Bearer \(token)", "Content-Type": "application/json", "Accept": "application/json, text/event-stream",
        ]
        if let session { headers.add(name: "Mcp-Session-Id", value: session) }
        return headers
    }
}
