public import Foundation

/// A tenant's MCP endpoint (`mcp` in the policy file, docs/mcp.md): Kiln is an OAuth 2.1 resource server there, taking
/// the app's own JWTs (the `jwt` settings' issuer and keys) issued for this resource.
public struct MCPSettings: Sendable, Equatable {
    /// The endpoint's canonical address as clients name it, e.g. `https://kiln.example/mcp/worldarchitect`: what the
    /// tokens' `aud` must hold, and what the Protected Resource Metadata calls the resource.
    public let resource: URL
    /// The authorization servers that issue the tokens, for the Protected Resource Metadata.
    public let authorizationServers: [String]
    /// The `Origin`s a browser may call from; a request with another `Origin` is refused (DNS rebinding). Clients
    /// that send no `Origin` (apps, servers) are not concerned.
    public let allowedOrigins: Set<String>

    /// Where the Protected Resource Metadata of ``resource`` is served (RFC 9728 §3.1): the well-known path between the
    /// host and the resource's path.
    public var metadataURL: String {
        var components = URLComponents(url: resource, resolvingAgainstBaseURL: false) ?? URLComponents()
        components.path = "/.well-known/oauth-protected-resource" + resource.path
        components.query = nil
        return components.string ?? resource.absoluteString
    }
}

extension MCPSettings {
    /// `{"resource": "https://…", "authorization_servers": ["https://…"], "allowed_origins": ["https://…"]?}`.
    init(parsing field: PolicyField) throws(PolicyError) {
        let object = try field.object(allowing: ["resource", "authorization_servers", "allowed_origins"])
        let resourceField = try object.required("resource")
        guard let resource = URL(string: try resourceField.string()), ["https", "http"].contains(resource.scheme ?? ""), resource.host != nil,
            resource.fragment == nil
        else { throw resourceField.failure("expected the endpoint's absolute http(s) address, without a fragment") }
        let serversField = try object.required("authorization_servers")
        let servers = try serversField.elements().map { element throws(PolicyError) in try element.string() }
        guard !servers.isEmpty else { throw serversField.failure("expected at least one authorization server") }
        let origins = try object.optional("allowed_origins")?.elements().map { element throws(PolicyError) in try element.string() } ?? []
        self.init(resource: resource, authorizationServers: servers, allowedOrigins: Set(origins))
    }
}
