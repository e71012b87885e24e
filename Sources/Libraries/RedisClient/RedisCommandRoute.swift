/// Which node of a Redis Cluster a command goes to: the master serving its key's slot, or any master for a command
/// without a key.
enum RedisCommandRoute: Sendable, Hashable {
    case slot(Int)
    case anyMaster

    /// The route of a command, from the argument Redis hashes: the first key, which for most commands is the first
    /// argument. `SCAN` goes where its `MATCH` pattern's hash tag lies: a node scans only its own keys.
    init(_ arguments: [String]) throws {
        guard let name = arguments.first else { throw RedisError.protocolViolation("a command needs a name") }
        let upper = name.uppercased()
        if upper == "SCAN" {
            self = try Self.scan(arguments)
            return
        }
        self = Self.firstKey(of: upper, in: arguments).map { .slot(RedisKeySlot.of($0)) } ?? .anyMaster
    }

    /// A script call's route: its first key's slot (all its keys must share it), any master when it has none.
    init(_ call: RedisScriptCall) {
        self = call.keys.first.map { .slot(RedisKeySlot.of($0)) } ?? .anyMaster
    }

    private static func firstKey(of name: String, in arguments: [String]) -> String? {
        func argument(_ index: Int) -> String? { index < arguments.count ? arguments[index] : nil }
        /// After a key count at `index`: the first key, nil when the count is 0.
        func counted(at index: Int) -> String? { (argument(index).flatMap { Int($0) } ?? 0) > 0 ? argument(index + 1) : nil }
        if keyless.contains(name) { return nil }
        switch name {
        case "EVAL", "EVALSHA", "EVAL_RO", "EVALSHA_RO", "FCALL", "FCALL_RO", "BLMPOP", "BZMPOP":
            return counted(at: 2)
        case "LMPOP", "ZMPOP", "SINTERCARD", "ZINTER", "ZUNION", "ZDIFF", "ZINTERCARD":
            return counted(at: 1)
        case "XREAD", "XREADGROUP":
            return arguments.firstIndex { $0.uppercased() == "STREAMS" }.flatMap { argument($0 + 1) }
        case "XINFO", "XGROUP", "OBJECT", "MEMORY":
            return argument(2)
        default:
            return argument(1)
        }
    }

    private static func scan(_ arguments: [String]) throws -> RedisCommandRoute {
        var index = 2
        while index + 1 < arguments.count {
            if arguments[index].uppercased() == "MATCH", let slot = RedisKeySlot.of(pattern: arguments[index + 1]) { return .slot(slot) }
            index += 2
        }
        throw RedisError.unroutable("SCAN on a cluster needs a MATCH pattern with a hash tag, to know which node holds its keys")
    }

    /// Commands that name no key, though they may take arguments.
    private static let keyless: Set<String> = [
        "ACL", "AUTH", "BGREWRITEAOF", "BGSAVE", "CLIENT", "CLUSTER", "COMMAND", "CONFIG", "DBSIZE", "DEBUG", "ECHO", "FLUSHALL", "FLUSHDB",
        "FUNCTION", "HELLO", "INFO", "KEYS", "LASTSAVE", "LATENCY", "PING", "PUBLISH", "RANDOMKEY", "ROLE", "SAVE", "SCRIPT", "SHUTDOWN",
        "SLOWLOG", "TIME", "WAIT",
    ]
}
