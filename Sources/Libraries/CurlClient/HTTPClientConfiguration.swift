/// Settings for an ``HTTPClient``.
public struct HTTPClientConfiguration: Sendable {
    /// Longest time to set up a connection, TCP and TLS together. Default 5 seconds.
    public var connectTimeout: Duration
    /// Longest time for a whole transfer, body included, when a call passes no timeout of its own.
    /// It also ends long streams, so streaming callers pass their own generous cap. Default 60 seconds.
    public var totalTimeout: Duration
    /// Most connections open to one host at once; further transfers wait inside libcurl for one to
    /// become free, and that wait counts against their timeout. Default 64.
    public var maxConnectionsPerHost: Int

    /// Creates a configuration; every argument has the default stated on its property.
    public init(
        connectTimeout: Duration = .seconds(5),
        totalTimeout: Duration = .seconds(60),
        maxConnectionsPerHost: Int = 64
    ) {
        self.connectTimeout = connectTimeout
        self.totalTimeout = totalTimeout
        self.maxConnectionsPerHost = maxConnectionsPerHost
    }
}
