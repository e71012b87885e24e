import KilnCore
import KilnKeys
import RedisClient

/// `beat.lua`: a worker's heartbeat, with the attempts it settled since the last one.
struct BeatCall: RedisScriptContract {
    static let scriptName = "beat"

    var keySpace: KeySpace
    var worker: String
    /// The worker's description, JSON.
    var info: String
    var expiresAfter: Duration
    var items: [(field: String, count: Int)]

    static let keys: [RedisScriptField<Self>] = [
        .init("workers") { $0.keySpace.workers },
        .init("worker") { $0.keySpace.worker($0.worker) },
    ]

    static let arguments: [RedisScriptField<Self>] = [
        .init("base") { $0.keySpace.base },
        .init("id") { $0.worker },
        .init("info") { $0.info },
        .init("ttl_ms") { String($0.expiresAfter.milliseconds) },
        .init("retention_ms") { _ in String(Throughput.Bucket.minute.retention.milliseconds) },
        .init("history_retention_ms") { _ in String(Throughput.Bucket.tenMinutes.retention.milliseconds) },
    ]

    static let itemArguments: [RedisScriptField<(field: String, count: Int)>] = [
        .init("field") { $0.field },
        .init("count") { String($0.count) },
    ]

    static let replies = [RedisReplyShape(fields: ["beat_ms"])]
}
