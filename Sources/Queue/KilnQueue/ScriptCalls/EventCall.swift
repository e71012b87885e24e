import KilnCore
import KilnKeys
import RedisClient

/// `event.lua`: appends progress and text-delta events for running attempts, many jobs' in one call.
struct EventCall: RedisScriptContract {
    static let scriptName = "event"

    var keySpace: KeySpace
    /// At least one; every job on this shard.
    var items: [EventWrites.Event]
    var configuration: QueueConfiguration

    static let keys: [RedisScriptField<Self>] = [.init("first_job") { $0.keySpace.job($0.items[0].job) }]

    static let arguments: [RedisScriptField<Self>] = [
        .init("base") { $0.keySpace.base },
        .init("stream_cap") { String($0.configuration.streamCap) },
    ]

    static let itemArguments: [RedisScriptField<EventWrites.Event>] = [
        .init("id") { $0.job.rawValue },
        .init("attempt") { String($0.attempt) },
        .init("seq") { String($0.sequence) },
        .init("kind") { $0.type },
        .init("data") { $0.data },
        .init("progress") { $0.progress ?? "" },
    ]

    static let replies = [RedisReplyShape(fields: [], itemFields: ["appended"])]

    /// For each event in order, false when its attempt had lost its lease (the lane checks that every event has one).
    static func appended(_ reply: RedisValue) throws -> [Bool] {
        try read(reply).items.map { try $0.int("appended") == 1 }
    }
}
