import ArgumentParser
import Foundation
import KilnCore
import KilnJSON
import KilnPolicy

/// `kiln-dev mcp token`: a bearer token for the tenant's MCP endpoint on the local stack, as the app's authorization
/// server would issue it: signed with the development key, from the tenant's `jwt` issuer, for its `mcp` resource.
struct MCPTokenCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "token", abstract: "Print a token for a tenant's MCP endpoint, signed with its development key (kiln-dev mcp keys).")

    @Option(help: "The user the token is for (its sub): an identity of the tenant.")
    var identity: String

    @Option(help: "The tenant whose endpoint the token is for.")
    var tenant = "worldarchitect"

    @Option(help: "The policies file naming the tenant's issuer and MCP resource (env KILN_POLICIES).")
    var policies = ProcessInfo.processInfo.environment["KILN_POLICIES"] ?? "deploy/policies.json"

    @Option(help: "Where the development key lives.")
    var keys = MCPCommand.defaultKeyDirectory

    @Option(help: "How long the token is valid, in hours.")
    var hours = 12

    func run() async throws {
        guard let tenantID = TenantID(validating: tenant) else { throw ValidationError("\(tenant) is not a tenant id") }
        let policySet: PolicySet
        do {
            policySet = try PolicySet.parse(try Data(contentsOf: URL(fileURLWithPath: policies)))
        } catch {
            throw ValidationError("\(policies): \(error)")
        }
        guard let policy = policySet[tenantID], let jwt = policy.jwt, let mcp = policy.mcp else {
            throw ValidationError("\(policies) gives \(tenant) no jwt and mcp sections: it has no MCP endpoint")
        }
        let key = try DevSigningKey(tenant: tenant, directory: URL(fileURLWithPath: keys))
        let now = Int(Date().timeIntervalSince1970)
        let claims: JSONValue = .object([
            "iss": .string(jwt.issuer), "aud": .string(mcp.resource.absoluteString), "sub": .string(identity),
            "iat": .number(Double(now)), "exp": .number(Double(now + hours * 3600)),
        ])
        print(try key.token(claims))
    }
}
