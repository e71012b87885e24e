import KilnCore
import KilnKeys
import RedisClient

/// `raise.lua`: raises a quota day's counters to at least the given values.
struct RaiseCall: RedisScriptContract {
    static let scriptName = "raise"

    var keySpace: KeySpace
    var tenant: TenantID
    var subject: String
    var day: String
    /// Each counter with the value it must reach.
    var items: [(String, Int)]
    /// The lifetime of a day's key rebuilt after Redis lost it.
    var ttl: Duration

    static let keys: [RedisScriptField<Self>] = [.init("quota") { $0.keySpace.quota($0.tenant, $0.subject, $0.day) }]

    static let arguments: [RedisScriptField<Self>] = [.init("ttl_ms") { String($0.ttl.milliseconds) }]

    static let itemArguments: [RedisScriptField<(String, Int)>] = [
        .init("field") { $0.0 },
        .init("value") { String($0.1) },
    ]

    static let replies = [RedisReplyShape(fields: ["raised"])]
}
