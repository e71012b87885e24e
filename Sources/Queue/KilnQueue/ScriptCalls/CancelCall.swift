import KilnCore
import KilnKeys
import RedisClient

/// `cancel.lua`: cancels a job for its owner.
struct CancelCall: RedisScriptContract {
    static let scriptName = "cancel"

    var keySpace: KeySpace
    var id: JobID
    var tenant: TenantID
    var identity: Identity

    static let keys: [RedisScriptField<Self>] = [
        .init("job") { $0.keySpace.job($0.id) },
        .init("delayed") { $0.keySpace.delayed },
    ]

    static let arguments: [RedisScriptField<Self>] = [
        .init("base") { $0.keySpace.base },
        .init("id") { $0.id.rawValue },
        .init("tenant") { $0.tenant.rawValue },
        .init("identity") { $0.identity.rawValue },
    ]

    static let replies = [
        RedisReplyShape(tag: "cancelled", fields: []),
        RedisReplyShape(tag: "requested", fields: []),
        RedisReplyShape(tag: "not_found", fields: []),
        RedisReplyShape(tag: "finished", fields: ["state"]),
    ]

    static func outcome(of reply: RedisValue) throws -> CancelOutcome {
        let reply = try read(reply)
        switch reply.tag {
        case "cancelled": return .cancelled
        case "requested": return .requested
        case "finished": return .alreadyFinished(try reply.decode("state", JobState.init(rawValue:)))
        default: return .notFound
        }
    }
}
