import KilnCore
import KilnKeys
import RedisClient

/// `recorded.lua`: marks jobs as written to PostgreSQL.
struct RecordedCall: RedisScriptContract {
    static let scriptName = "recorded"

    var keySpace: KeySpace
    var items: [FinishedJob]
    var configuration: QueueConfiguration

    static let keys: [RedisScriptField<Self>] = [.init("unrecorded") { $0.keySpace.unrecorded }]

    static let arguments: [RedisScriptField<Self>] = [
        .init("base") { $0.keySpace.base },
        .init("retention_s") { String($0.configuration.retention.components.seconds) },
    ]

    static let itemArguments: [RedisScriptField<FinishedJob>] = [
        .init("id") { $0.record.id.rawValue },
        .init("recorded_finish") { String($0.finishedAtMilliseconds) },
        .init("state") { $0.record.state.rawValue },
    ]

    static let replies = [RedisReplyShape(fields: ["marked"])]
}
