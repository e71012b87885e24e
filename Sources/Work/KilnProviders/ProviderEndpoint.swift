/// Where a provider is and how to reach it: the same client talks to the real service or to the simulator.
public struct ProviderEndpoint: Sendable {
    /// The base URL without a trailing slash, e.g. `https://api.anthropic.com` or `http://127.0.0.1:8790`.
    public var baseURL: String
    /// The API key. It is sent only in the provider's own header and never logged.
    public var apiKey: String
    /// Longest wait for the first byte of an answer (models think before they speak). Default 60 seconds.
    public var firstByteTimeout: Duration
    /// Longest silence inside a streamed answer once it has started. Default 30 seconds.
    public var idleTimeout: Duration
    /// Longest time for a whole call, stream included. Default 10 minutes, the official SDKs' own.
    public var totalTimeout: Duration
    /// Extra header fields sent with every request (an organisation, a project, a gateway's headers).
    public var extraHeaders: [(name: String, value: String)]

    /// Creates an endpoint; every argument but the URL and key has the default stated on its property.
    public init(
        baseURL: String, apiKey: String, firstByteTimeout: Duration = .seconds(60), idleTimeout: Duration = .seconds(30),
        totalTimeout: Duration = .seconds(600), extraHeaders: [(name: String, value: String)] = []
    ) {
        self.baseURL = baseURL.hasSuffix("/") ? String(baseURL.dropLast()) : baseURL
        self.apiKey = apiKey
        self.firstByteTimeout = firstByteTimeout
        self.idleTimeout = idleTimeout
        self.totalTimeout = totalTimeout
        self.extraHeaders = extraHeaders
    }
}
