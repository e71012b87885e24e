import KilnCore
import KilnKeys
import RedisClient

/// `erase.lua`: erases jobs of one identity.
struct EraseCall: RedisScriptContract {
    static let scriptName = "erase"

    var keySpace: KeySpace
    var tenant: TenantID
    var identity: Identity
    var items: [JobID]

    static let keys: [RedisScriptField<Self>] = [
        .init("delayed") { $0.keySpace.delayed },
        .init("dead") { $0.keySpace.dead },
        .init("unrecorded") { $0.keySpace.unrecorded },
    ]

    static let arguments: [RedisScriptField<Self>] = [
        .init("base") { $0.keySpace.base },
        .init("tenant") { $0.tenant.rawValue },
        .init("identity") { $0.identity.rawValue },
    ]

    static let itemArguments: [RedisScriptField<JobID>] = [.init("id") { $0.rawValue }]

    static let replies = [RedisReplyShape(fields: ["erased", "pending"])]

    static func outcome(of reply: RedisValue) throws -> (erased: [JobID], pending: [JobID]) {
        let reply = try read(reply)
        return (
            try reply.strings("erased").compactMap(JobID.init(validating:)),
            try reply.strings("pending").compactMap(JobID.init(validating:))
        )
    }
}
