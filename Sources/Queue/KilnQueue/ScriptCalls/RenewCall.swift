import KilnCore
import KilnKeys
import RedisClient

/// `renew.lua`: extends the leases of one worker's running jobs in one call.
struct RenewCall: RedisScriptContract {
    static let scriptName = "renew"

    var keySpace: KeySpace
    /// Each running job with its attempt.
    var items: [(JobID, Int)]
    var configuration: QueueConfiguration

    static let keys: [RedisScriptField<Self>] = [.init("inflight") { $0.keySpace.inflight }]

    static let arguments: [RedisScriptField<Self>] = [
        .init("base") { $0.keySpace.base },
        .init("lease_ms") { String($0.configuration.leaseDuration.milliseconds) },
    ]

    static let itemArguments: [RedisScriptField<(JobID, Int)>] = [
        .init("id") { $0.0.rawValue },
        .init("attempt") { String($0.1) },
    ]

    static let replies = [RedisReplyShape(fields: ["lost", "cancel_requested"])]

    static func outcome(of reply: RedisValue) throws -> (lost: [JobID], cancelRequested: [JobID]) {
        let reply = try read(reply)
        return (
            try reply.strings("lost").compactMap(JobID.init(validating:)),
            try reply.strings("cancel_requested").compactMap(JobID.init(validating:))
        )
    }
}
