/// Where one Redis server listens: a cluster's node, or the single Redis.
public struct RedisNodeAddress: Sendable, Hashable, CustomStringConvertible {
    public var host: String
    public var port: Int

    public init(host: String, port: Int) {
        self.host = host
        self.port = port
    }

    /// Reads `host:port` (the last colon splits, so an IPv6 host keeps its own); an empty host is `defaultHost`, as in a
    /// `MOVED` reply of a node that does not know its own address.
    init?(_ text: some StringProtocol, defaultHost: String) {
        guard let colon = text.lastIndex(of: ":"), let port = Int(text[text.index(after: colon)...]), port > 0 else { return nil }
        let host = text[..<colon]
        self.init(host: host.isEmpty ? defaultHost : String(host), port: port)
    }

    public var description: String { "\(host):\(port)" }
}
