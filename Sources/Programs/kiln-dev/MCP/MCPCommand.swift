import ArgumentParser
import Foundation

/// `kiln-dev mcp`: what an MCP client needs to reach a tenant's endpoint on the local stack.
struct MCPCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "mcp", abstract: "Development keys and tokens for a tenant's MCP endpoint on the local stack (docs/mcp.md).",
        subcommands: [MCPKeysCommand.self, MCPTokenCommand.self])

    /// Where the development keys live: `$KILN_STATE_DIR/mcp`, else `.kiln/mcp`.
    static var defaultKeyDirectory: String {
        (ProcessInfo.processInfo.environment["KILN_STATE_DIR"] ?? ".kiln") + "/mcp"
    }
}
