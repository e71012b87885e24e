/// Where Redis is and how long to wait for it.
public struct RedisConfiguration: Sendable {
    /// Host name or address.
    public var host: String = "127.0.0.1"
    /// TCP port.
    public var port: Int = 6379
    /// Sent with `AUTH` after connecting, when set.
    public var password: String? = nil
    /// Database number selected after connecting.
    public var database: Int = 0
    /// How long a connection attempt may take.
    public var connectTimeout: Duration = .seconds(2)
    /// How long one command (or pipeline) may wait for its reply; blocking commands set their own.
    public var commandTimeout: Duration = .seconds(5)
    /// The most connections the pool opens.
    public var poolSize: Int = 16

    public init() {}

    /// Reads `redis://[:password@]host[:port][/database]`; nil when the URL is not of that form.
    public init?(url: String) {
        guard url.hasPrefix("redis://") else { return nil }
        var rest = Substring(url.dropFirst("redis://".count))
        if let at = rest.lastIndex(of: "@") {
            let credentials = rest[..<at]
            rest = rest[rest.index(after: at)...]
            let password = credentials.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false).last.map(String.init)
            self.password = password?.isEmpty == false ? password : nil
        }
        if let slash = rest.firstIndex(of: "/") {
            let databaseText = rest[rest.index(after: slash)...]
            rest = rest[..<slash]
            if !databaseText.isEmpty {
                guard let database = Int(databaseText) else { return nil }
                self.database = database
            }
        }
        if let colon = rest.lastIndex(of: ":") {
            guard let port = Int(rest[rest.index(after: colon)...]) else { return nil }
            self.port = port
            rest = rest[..<colon]
        }
        if !rest.isEmpty { self.host = String(rest) }
    }
}

extension Duration {
    /// Whole milliseconds, rounded up so a short positive timeout never becomes "forever".
    var wholeMilliseconds: Int {
        let (seconds, attoseconds) = components
        return Int(seconds) * 1000 + Int((attoseconds + 999_999_999_999_999) / 1_000_000_000_000_000)
    }
}
