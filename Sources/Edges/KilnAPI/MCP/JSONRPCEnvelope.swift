import HTTPTypes
import KilnJSON
import MCP

/// What a JSON-RPC 2.0 message posted to the MCP endpoint is, read before anything runs, so that a message Kiln cannot
/// accept is answered at once with the error the specification gives, never left unanswered: a request (a method and
/// an id, a string or an integer), a notification (a method, no id), or a response to a request of the server's.
enum JSONRPCEnvelope: Equatable {
    case request(method: String, id: JSONValue)
    case notification(method: String)
    case response

    /// Reads `message`, the body parsed; throws the refusal JSON-RPC's "Invalid Request" (-32600) calls for, with the
    /// message's id when it has a valid one.
    init(_ message: JSONValue) throws(MCPRefusal) {
        guard case .object(let members) = message else {
            if case .array = message { throw Self.invalid("batches are not supported: send one message per request") }
            throw Self.invalid("a JSON-RPC message is an object")
        }
        let id = members["id"]
        if let id, !Self.isValidID(id) { throw Self.invalid("the id is a string or an integer") }
        guard members["jsonrpc"] == .string("2.0") else { throw Self.invalid("the message's jsonrpc is \"2.0\"", id: id) }
        switch members["method"] {
        case .string(let method)?:
            self = id.map { .request(method: method, id: $0) } ?? .notification(method: method)
        case nil where id != nil && (members["result"] != nil || members["error"] != nil):
            self = .response
        case nil:
            throw Self.invalid("a message has a method, or an id with a result or an error", id: id)
        case _?:
            throw Self.invalid("the method is a string", id: id)
        }
    }

    /// A string or an integer: MCP's ids are never null, and JSON-RPC's should have no fractional part.
    static func isValidID(_ id: JSONValue) -> Bool {
        id.stringValue != nil || id.intValue != nil
    }

    private static func invalid(_ message: String, id: JSONValue? = nil) -> MCPRefusal {
        var refusal = MCPRefusal(.badRequest, .invalidRequest(message))
        refusal.id = id ?? .null
        return refusal
    }
}
