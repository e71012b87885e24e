/// A Lua script run with `EVALSHA`: loaded once, and loaded again when Redis answers `NOSCRIPT`
/// (after a restart or `SCRIPT FLUSH`).
public struct RedisScript: Sendable, Hashable {
    public let name: String
    public let source: String
    /// The source's hash, worked out once: a script is looked up by value on every call, and hashing its whole text
    /// (kilobytes, with Unicode normalisation) each time would be a large part of the API node's CPU.
    private let sourceHash: Int

    public init(name: String, source: String) {
        self.name = name
        self.source = source
        self.sourceHash = source.hashValue
    }

    public static func == (lhs: RedisScript, rhs: RedisScript) -> Bool {
        lhs.sourceHash == rhs.sourceHash && lhs.name == rhs.name && lhs.source == rhs.source
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(sourceHash)
    }
}

/// One call of a script in a pipeline.
public struct RedisScriptCall: Sendable {
    public let script: RedisScript
    public let keys: [String]
    public let arguments: [String]

    public init(_ script: RedisScript, keys: [String], arguments: [String]) {
        self.script = script
        self.keys = keys
        self.arguments = arguments
    }
}
