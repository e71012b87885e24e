import KilnCore
import KilnKeys
import RedisClient

/// `purge.lua`: deletes dead-lettered jobs for good.
struct PurgeCall: RedisScriptContract {
    static let scriptName = "purge"

    var keySpace: KeySpace
    /// The one job to purge; every dead-lettered one when nil.
    var only: JobID?

    static let keys: [RedisScriptField<Self>] = [.init("dead") { $0.keySpace.dead }]

    static let arguments: [RedisScriptField<Self>] = [
        .init("base") { $0.keySpace.base },
        .init("only") { $0.only?.rawValue ?? "" },
    ]

    static let replies = [RedisReplyShape(fields: ["purged"])]
}
