import KilnKeys
import RedisClient

/// `held.lua`: counts the jobs that running caps hold back, by tenant.
struct HeldCall: RedisScriptContract {
    static let scriptName = "held"

    var keySpace: KeySpace

    static let keys: [RedisScriptField<Self>] = [.init("holders") { $0.keySpace.holders }]

    static let arguments: [RedisScriptField<Self>] = [.init("base") { $0.keySpace.base }]

    static let replies = [RedisReplyShape(fields: ["held"], itemFields: ["tenant", "count"])]

    /// Each tenant's held jobs.
    static func counts(of reply: RedisValue) throws -> [String: Int] {
        var counts: [String: Int] = [:]
        for item in try read(reply).items { counts[try item.string("tenant")] = Int(try item.int("count")) }
        return counts
    }
}
