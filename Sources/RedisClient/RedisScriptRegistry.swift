import Synchronization

/// The SHA1 of each loaded script, shared by every connection of a pool.
final class RedisScriptRegistry: Sendable {
    private let digests = Mutex<[RedisScript: String]>([:])

    /// `SCRIPT LOAD`s the script and remembers its digest.
    @discardableResult
    func load(_ script: RedisScript, on connection: RedisConnection) throws -> String {
        guard let digest = try connection.send(["SCRIPT", "LOAD", script.source]).string else {
            throw RedisError.protocolViolation("SCRIPT LOAD answered without a digest")
        }
        digests.withLock { $0[script] = digest }
        return digest
    }

    /// Runs every call in one round trip; a call that met `NOSCRIPT` did not run, so it is loaded and run again alone.
    /// Calls behind it that another client had loaded already ran, so after a flush or restart the calls can run out
    /// of order once: a pipeline must tolerate that (the queue's settle-then-claim then only claims fewer jobs).
    func run(_ calls: [RedisScriptCall], on connection: RedisConnection) throws -> [RedisValue] {
        var commands: [[String]] = []
        commands.reserveCapacity(calls.count)
        for call in calls {
            let digest = try digests.withLock { $0[call.script] } ?? load(call.script, on: connection)
            commands.append(["EVALSHA", digest, String(call.keys.count)] + call.keys + call.arguments)
        }
        var replies = try connection.pipeline(commands)
        for index in replies.indices {
            guard case .error(let message) = replies[index], message.hasPrefix("NOSCRIPT") else { continue }
            let call = calls[index]
            let digest = try load(call.script, on: connection)
            replies[index] = try connection.pipeline([["EVALSHA", digest, String(call.keys.count)] + call.keys + call.arguments])[0]
        }
        return replies
    }
}
