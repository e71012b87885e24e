import KilnCore
import KilnKeys
import RedisClient

/// `forget.lua`: deletes the Redis copies of recorded jobs whose record the retention purge emptied.
struct ForgetCall: RedisScriptContract {
    static let scriptName = "forget"

    var keySpace: KeySpace
    var items: [JobID]

    static let keys: [RedisScriptField<Self>] = [.init("unrecorded") { $0.keySpace.unrecorded }]

    static let arguments: [RedisScriptField<Self>] = [.init("base") { $0.keySpace.base }]

    static let itemArguments: [RedisScriptField<JobID>] = [.init("id") { $0.rawValue }]

    static let replies = [RedisReplyShape(fields: ["forgotten"])]
}
