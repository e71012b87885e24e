/// Where `kiln console` listens and how its sessions behave.
public struct ConsoleConfiguration: Sendable {
    /// The address to bind: loopback by default, so the console is on no public ingress unless an operator puts it
    /// there on purpose.
    public var host = "127.0.0.1"
    public var port = 8795
    /// The address operators reach the console at. When it is `https`, the session cookie is `Secure`.
    public var publicURL = "http://127.0.0.1:8795"
    /// How long a sign-in lasts before the console asks for the token again.
    public var sessionLifetime: Duration = .seconds(12 * 3600)
    /// Rows on a page of every list.
    public var pageSize = 50
    /// How often the overview's live part is sent again.
    public var liveInterval: Duration = .seconds(2)
    /// How long an artifact's link works.
    public var artifactLinkLifetime: Duration = .seconds(300)
    /// Behind a proxy you trust, the header that carries the client's address (its first entry, as in
    /// `X-Forwarded-For`); nil uses the connection's peer. Sign-ins are throttled and actions audited by this address.
    public var clientAddressHeader: String? = nil

    public init() {}

    /// Whether cookies go only over TLS.
    var secureCookies: Bool { publicURL.lowercased().hasPrefix("https://") }
}
