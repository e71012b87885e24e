import KilnCore
import KilnKeys
import RedisClient

/// `replay.lua`: moves a dead-lettered job back to its queue with a fresh set of attempts.
struct ReplayCall: RedisScriptContract {
    static let scriptName = "replay"

    var keySpace: KeySpace
    var id: JobID
    var configuration: QueueConfiguration

    static let keys: [RedisScriptField<Self>] = [
        .init("dead") { $0.keySpace.dead },
        .init("job") { $0.keySpace.job($0.id) },
    ]

    static let arguments: [RedisScriptField<Self>] = [
        .init("base") { $0.keySpace.base },
        .init("id") { $0.id.rawValue },
        .init("stream_cap") { String($0.configuration.streamCap) },
    ]

    static let replies = [RedisReplyShape(fields: ["replayed"])]
}
