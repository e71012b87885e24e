import KilnCore
import KilnKeys
import RedisClient

/// `event.lua`: appends a progress or text-delta event for a running attempt.
struct EventCall: RedisScriptContract {
    static let scriptName = "event"

    var keySpace: KeySpace
    var job: JobID
    var attempt: Int
    var type: String
    /// JSON text.
    var data: String
    /// The job's progress to keep on its hash, if the event reports one.
    var progress: String?
    var configuration: QueueConfiguration

    static let keys: [RedisScriptField<Self>] = [.init("job") { $0.keySpace.job($0.job) }]

    static let arguments: [RedisScriptField<Self>] = [
        .init("base") { $0.keySpace.base },
        .init("id") { $0.job.rawValue },
        .init("attempt") { String($0.attempt) },
        .init("kind") { $0.type },
        .init("data") { $0.data },
        .init("stream_cap") { String($0.configuration.streamCap) },
        .init("progress") { $0.progress ?? "" },
    ]

    static let replies = [RedisReplyShape(fields: ["appended"])]

    /// False when the attempt lost its lease.
    static func appended(_ reply: RedisValue) throws -> Bool {
        try read(reply).int("appended") == 1
    }
}
