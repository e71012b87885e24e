import NIOCore
import Locking

/// The scripts a pool has loaded and their SHA1 digests, shared by all its connections.
final class RedisScriptRegistry: Sendable {
    private let digests = Locked<[RedisScript: String]>([:])

    /// `SCRIPT LOAD`s the scripts in one round trip and remembers their digests.
    func load(_ scripts: [RedisScript], on connection: RedisConnection) async throws {
        guard !scripts.isEmpty else { return }
        var request = ByteBuffer()
        for script in scripts { try request.writeRedisCommand(["SCRIPT", "LOAD", script.source]) }
        let replies = try await connection.exchange(request, replyCount: scripts.count)
        var loaded: [RedisScript: String] = [:]
        for (script, reply) in zip(scripts, replies) {
            guard let digest = try reply.checked().string else { throw RedisError.protocolViolation("SCRIPT LOAD answered without a digest") }
            loaded[script] = digest
        }
        digests.withLock { $0.merge(loaded) { $1 } }
    }

    /// Loads every known script on a new connection, before it carries any command: after a restart Redis has none.
    func loadAll(on connection: RedisConnection) async throws {
        try await load(digests.withLock { Array($0.keys) }, on: connection)
    }

    /// The digest of a script this registry has loaded; nil before its first load.
    func digest(of script: RedisScript) -> String? {
        digests.withLock { $0[script] }
    }

    /// Runs the calls in order in one exchange by `EVALSHA`; with `asking`, each preceded by `ASKING` (on the node that
    /// imports their slot, after an `ASK` redirect).
    ///
    /// A call that met `NOSCRIPT` did not run. Its script is loaded again and it runs again, together with every later
    /// call of the exchange that met `NOSCRIPT` too, in their order. Scripts go all at once (`SCRIPT FLUSH`, a restart),
    /// and Redis runs one client's pipelined commands back to back, so the calls after a `NOSCRIPT` met it as well and
    /// the calls still run in their order. (Only if another client reloaded a script between two of these calls could a
    /// later call have run first.)
    func run(_ calls: [RedisScriptCall], on connection: RedisConnection, asking: Bool = false) async throws -> [RedisValue] {
        guard !calls.isEmpty else { return [] }
        var replies = try await exchange(calls, on: connection, asking: asking)
        let refused = replies.indices.filter { replies[$0].isNoScript }
        guard !refused.isEmpty else { return replies }
        try await load(Array(Set(refused.map { calls[$0].script })), on: connection)
        let rerun = try await exchange(refused.map { calls[$0] }, on: connection, asking: asking)
        for (index, reply) in zip(refused, rerun) { replies[index] = reply }
        return replies
    }

    /// The calls as `EVALSHA`s in one exchange, loading first the scripts this registry has no digest for (only before
    /// their first call, as the pool loads its scripts at start).
    private func exchange(_ calls: [RedisScriptCall], on connection: RedisConnection, asking: Bool) async throws -> [RedisValue] {
        var known = digests.withLock { digests in calls.map { digests[$0.script] } }
        if known.contains(nil) {
            try await load(Array(Set(zip(calls, known).filter { $0.1 == nil }.map(\.0.script))), on: connection)
            known = digests.withLock { digests in calls.map { digests[$0.script] } }
        }
        let digests = try zip(calls, known).map { call, digest in
            guard let digest else { throw RedisError.protocolViolation("script \(call.script.name) is not loaded") }
            return digest
        }
        let request = try Self.request(calls, digests: digests, asking: asking)
        let replies = try await connection.exchange(request, replyCount: calls.count * (asking ? 2 : 1))
        return asking ? replies.droppingAskingReplies() : replies
    }

    /// The calls as `EVALSHA`s of their `digests` in one request, with room for all of them at once: a worker's settle
    /// of a batch runs to tens of kilobytes.
    static func request(_ calls: [RedisScriptCall], digests: [String], asking: Bool = false) throws -> ByteBuffer {
        var request = ByteBuffer()
        func size(_ arguments: [String]) -> Int { arguments.reduce(0) { $0 + $1.utf8.count + 16 } }
        request.reserveCapacity(calls.reduce(0) { $0 + 64 + size($1.keys) + size($1.arguments) })
        for (call, digest) in zip(calls, digests) {
            if asking { try request.writeRedisCommand(["ASKING"]) }
            try request.writeScriptCall(call, digest: digest)
        }
        return request
    }
}

extension ByteBuffer {
    /// Writes a script call as the `EVALSHA` of its loaded script's digest.
    mutating func writeScriptCall(_ call: RedisScriptCall, digest: String) throws {
        try writeRedisCommand(["EVALSHA", digest, String(call.keys.count)], call.keys, call.arguments)
    }
}

extension RedisValue {
    /// Redis's answer to an `EVALSHA` of a script it does not hold: the call did not run.
    var isNoScript: Bool {
        if case .error(let message) = self { return message.hasPrefix("NOSCRIPT") }
        return false
    }
}
