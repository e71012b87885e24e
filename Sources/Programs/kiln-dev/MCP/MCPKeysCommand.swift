import ArgumentParser
import Foundation

/// `kiln-dev mcp keys`: makes the tenant's development key once, and writes its public key set for the local policies.
struct MCPKeysCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "keys",
        abstract: "Make a tenant's development signing key (once) and write its public key set; print the key set's path.")

    @Option(help: "The tenant whose MCP endpoint the key signs tokens for.")
    var tenant = "worldarchitect"

    @Option(help: "Where the key (<tenant>.pem) and its key set (<tenant>.jwks.json) live.")
    var keys = MCPCommand.defaultKeyDirectory

    func run() async throws {
        let directory = URL(fileURLWithPath: keys)
        let key = try DevSigningKey(tenant: tenant, directory: directory)
        let file = directory.appendingPathComponent("\(tenant).jwks.json")
        try Data(key.keySet.utf8).write(to: file)
        print(file.path)
    }
}
