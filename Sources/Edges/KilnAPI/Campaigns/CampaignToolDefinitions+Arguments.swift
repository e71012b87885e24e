import KilnCore
import KilnJSON
import MCP

extension CampaignToolDefinitions {
    /// Each tool's input schema, the one `tools/list` declares, as a validator, by the tool's name.
    private static let argumentValidators: [String: JSONSchemaValidator] = Dictionary(
        uniqueKeysWithValues: all.map { tool in
            // A schema that does not encode leaves its tool unchecked here; every test that lists the tools fails then.
            (tool.name, JSONSchemaValidator(schema: (try? JSONValue(encoding: tool.inputSchema)) ?? .object([:])))
        })

    /// Checks a `tools/call`'s `params` against the called tool's input schema, before anything runs or is charged.
    /// - Returns: the first argument its schema refuses (unknown where the schema allows no others, missing where it is
    ///   required, of the wrong type or out of range), named by its path in the arguments; nil when the arguments are
    ///   valid, or when no tool has the name (the server answers that).
    /// - Throws: JSON-RPC's Invalid params when `params` are not a `tools/call`'s: not an object, no tool name, or
    ///   arguments that are not an object.
    static func violation(inCall params: JSONValue?) throws(MCPError) -> InputError? {
        guard case .object(let members)? = params else { throw .invalidParams("a tools/call's params are an object") }
        guard case .string(let name)? = members["name"] else { throw .invalidParams("name is the tool's name, a string") }
        let arguments = members["arguments"].flatMap { $0 == .null ? nil : $0 } ?? .object([:])
        guard case .object = arguments else { throw .invalidParams("arguments is an object of the tool's arguments by name") }
        guard let violation = argumentValidators[name]?.violations(of: arguments).first else { return nil }
        return InputError(field: violation.path == "$" ? "arguments" : String(violation.path.dropFirst(2)), reason: violation.reason)
    }
}
