/// A Lua script run with `EVALSHA`: loaded once, and loaded again when Redis answers `NOSCRIPT`
/// (after a restart or `SCRIPT FLUSH`).
public struct RedisScript: Sendable, Hashable {
    public let name: String
    public let source: String

    public init(name: String, source: String) {
        self.name = name
        self.source = source
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
