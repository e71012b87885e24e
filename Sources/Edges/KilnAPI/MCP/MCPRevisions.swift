import KilnJSON

/// The revisions of MCP that Kiln's endpoint serves, and the one it answers an `initialize` with. Kiln serves the
/// revisions whose Streamable HTTP transport takes one JSON-RPC message a request: 2025-06-18 and after. 2025-03-26
/// requires a server to accept batches, which Kiln does not, so a client asking for it, or for any revision Kiln does
/// not serve, is answered with the latest one Kiln serves, as MCP's lifecycle says a server does; the client then
/// carries on in that revision or disconnects.
enum MCPRevisions {
    /// Newest first.
    static let served = ["2025-11-25", "2025-06-18"]

    /// The revision of an `initialize` that asks for `requested`.
    static func negotiate(_ requested: String?) -> String {
        requested.flatMap { served.contains($0) ? $0 : nil } ?? served[0]
    }

    /// `initialize`'s message as the SDK's server is to read it: asking for the revision Kiln answers with, which the
    /// server then answers with (it would echo any revision the SDK knows, batches or not). A message whose `params`
    /// is not an object is the SDK's to refuse, and left as it is.
    static func negotiating(_ initialize: JSONValue) -> JSONValue {
        guard case .object(var members) = initialize, case .object(var parameters)? = members["params"] else { return initialize }
        parameters["protocolVersion"] = .string(negotiate(parameters["protocolVersion"]?.stringValue))
        members["params"] = .object(parameters)
        return .object(members)
    }

    /// Whether a tool call's arguments that its input schema refuses are a tool result with `isError` (from 2025-11-25,
    /// so that the model reads what to fix), rather than the JSON-RPC error -32602 (Invalid params) of 2025-06-18.
    static func refusesArgumentsInToolResult(_ revision: String) -> Bool {
        revision >= "2025-11-25"
    }
}
