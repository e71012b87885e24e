import KilnCore
import KilnKeys
import RedisClient

/// `settle.lua`: settles finished attempts, each fenced by its attempt number.
struct SettleCall: RedisScriptContract {
    static let scriptName = "settle"

    var keySpace: KeySpace
    var settlements: [Settlement]
    var configuration: QueueConfiguration

    var items: [Settlement] { settlements }

    static let keys: [RedisScriptField<Self>] = [
        .init("inflight") { $0.keySpace.inflight },
        .init("delayed") { $0.keySpace.delayed },
    ]

    static let arguments: [RedisScriptField<Self>] = [
        .init("base") { $0.keySpace.base },
        .init("stream_cap") { String($0.configuration.streamCap) },
    ]

    static let itemArguments: [RedisScriptField<Settlement>] = [
        .init("id") { $0.job.rawValue },
        .init("attempt") { String($0.attempt) },
        .init("outcome") { $0.script.outcome },
        .init("payload") { $0.script.payload },
        .init("code") { $0.script.code },
        .init("delay_ms") { String($0.script.delay.milliseconds) },
    ]

    static let replies = [RedisReplyShape(fields: ["settled_ms"], itemFields: ["state", "error_code", "error_message", "charge"])]

    /// What each settlement did, nil where the attempt had lost its lease; empty when the reply cannot be read.
    static func settled(from reply: RedisValue) -> [SettledAttempt?] {
        guard let reply = try? read(reply), let settledAt = try? reply.int("settled_ms") else { return [] }
        return reply.items.map { item in
            guard let state = try? item.decode("state", JobState.init(rawValue:)) else { return nil }
            return SettledAttempt(
                state: state, settledAtMilliseconds: settledAt, errorCode: try? item.text("error_code"),
                errorMessage: try? item.text("error_message"), charge: try? item.text("charge"))
        }
    }
}

extension Settlement {
    /// The outcome as `settle.lua` takes it.
    fileprivate var script: (outcome: String, payload: String, code: String, delay: Duration) {
        switch outcome {
        case .succeeded(let result): ("succeeded", result, "", .zero)
        case .retry(let code, let message, let delay): ("retry", message, code, delay)
        case .failed(let code, let message): ("failed", message, code, .zero)
        case .cancelled(let message): ("cancelled", message, "cancelled", .zero)
        case .throttled(let code, let message, let delay): ("throttled", message, code, delay)
        case .released: ("released", "", "", .zero)
        }
    }
}
