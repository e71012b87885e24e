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
    /// The connections every command but the blocking ones shares, on each event loop of the process. Each carries
    /// many callers' commands at once, so one a loop is usually enough: a caller running on a loop uses its loop's
    /// first, and the others take them all in turn; more batch less per write.
    public var sharedConnections: Int = 1
    /// The most blocking commands (`BLPOP`, `XREAD BLOCK`) waiting at once, each on a connection of its own; more
    /// wait for one of them to end.
    public var blockingConnections: Int = 64
    /// The most calls awaiting replies on one shared connection; more are refused with an unavailable error, so an
    /// overloaded process answers 503 instead of queueing without bound.
    public var maxOutstandingCalls: Int = 10_000
    /// The longest wait before trying to connect again after failed attempts (``ReconnectBackoff``); calls in between
    /// fail at once.
    public var maxReconnectDelay: Duration = .seconds(1)

    /// Empty for a single Redis at `host` and `port`. Otherwise some nodes of a Redis Cluster (any of them, masters or
    /// replicas), from which the pool learns which master serves each slot; `host` and `port` are then the first seed.
    public var clusterSeeds: [RedisNodeAddress] = []

    public init() {}

    /// Reads `redis://[:password@]host[:port][/database]`, or for a cluster
    /// `redis-cluster://[:password@]host:port[,host:port…]` (some of its nodes; a cluster has no databases but 0); nil
    /// when the URL is not of either form.
    public init?(url: String) {
        if url.hasPrefix("redis-cluster://") {
            guard let cluster = RedisConfiguration(clusterURL: url.dropFirst("redis-cluster://".count)) else { return nil }
            self = cluster
            return
        }
        guard url.hasPrefix("redis://") else { return nil }
        var rest = Substring(url.dropFirst("redis://".count))
        readPassword(&rest)
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

    private init?(clusterURL: Substring) {
        var rest = clusterURL
        readPassword(&rest)
        if rest.hasSuffix("/") || rest.hasSuffix("/0") { rest = rest[..<(rest.lastIndex(of: "/") ?? rest.endIndex)] }
        var seeds: [RedisNodeAddress] = []
        for text in rest.split(separator: ",") {
            guard let seed = RedisNodeAddress(text, defaultHost: ""), !seed.host.isEmpty else { return nil }
            seeds.append(seed)
        }
        guard let first = seeds.first else { return nil }
        clusterSeeds = seeds
        host = first.host
        port = first.port
    }

    /// Takes `[:password@]` off the front of `rest`.
    private mutating func readPassword(_ rest: inout Substring) {
        if let at = rest.lastIndex(of: "@") {
            let credentials = rest[..<at]
            rest = rest[rest.index(after: at)...]
            let password = credentials.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false).last.map(String.init)
            self.password = password?.isEmpty == false ? password : nil
        }
    }
}

extension Duration {
    /// Whole milliseconds, rounded up so a short positive timeout never becomes "forever".
    var wholeMilliseconds: Int {
        let (seconds, attoseconds) = components
        return Int(seconds) * 1000 + Int((attoseconds + 999_999_999_999_999) / 1_000_000_000_000_000)
    }
}
