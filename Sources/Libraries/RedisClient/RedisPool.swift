import NIOCore
import NIOPosix

/// Kiln's way to Redis: a few connections that every caller shares, on the event loops the HTTP server uses, and
/// connections of their own for blocking commands.
///
/// Commands that many tasks issue at once go out together on a shared connection and their replies come back in order
/// (automatic pipelining), so no caller waits for another's round trip and no thread waits for any. A slow or dead
/// Redis costs callers their command timeout at most; while it cannot be reached they fail at once with an unavailable
/// ``RedisError``.
///
/// Pointed at a Redis Cluster (``RedisConfiguration/clusterSeeds``), it sends each command to the master serving its
/// key's slot and follows the cluster as it changes (``RedisCluster``); its callers see the same calls.
public final class RedisPool: Sendable {
    public let configuration: RedisConfiguration
    private let servers: Servers
    private let scripts: RedisScriptRegistry

    /// One Redis, or a cluster's masters: a single Redis takes the same path as before clusters were supported.
    private enum Servers: Sendable {
        case single(RedisNodeConnections)
        case cluster(RedisCluster)
    }

    /// Connections open on first use, on the process's shared event loops (those Hummingbird serves HTTP on). With
    /// `configuration.clusterSeeds`, the first use asks the cluster for its slot map first.
    public init(configuration: RedisConfiguration) {
        let group = MultiThreadedEventLoopGroup.singleton
        self.configuration = configuration
        let scripts = RedisScriptRegistry()
        self.scripts = scripts
        if configuration.clusterSeeds.isEmpty {
            let address = RedisNodeAddress(host: configuration.host, port: configuration.port)
            servers = .single(RedisNodeConnections(address, configuration: configuration, group: group, scripts: scripts))
        } else {
            servers = .cluster(RedisCluster(configuration: configuration, group: group, scripts: scripts))
        }
    }

    /// Sends one command; an error reply is thrown as a server ``RedisError``.
    @discardableResult
    public func send(_ arguments: [String]) async throws -> RedisValue {
        switch servers {
        case .single(let node): return try await node.connection().send(arguments)
        case .cluster(let cluster): return try await cluster.send(arguments)
        }
    }

    /// Sends commands one after another with nothing of this caller's in between; error replies come back as
    /// `.error` values. On a cluster, the commands of each node go in one exchange, the nodes' in parallel.
    public func pipeline(_ commands: [[String]]) async throws -> [RedisValue] {
        guard !commands.isEmpty else { return [] }
        switch servers {
        case .single(let node): return try await node.connection().exchange(commands: commands)
        case .cluster(let cluster): return try await cluster.pipeline(commands)
        }
    }

    /// Runs one script; its error reply is thrown as a server ``RedisError``.
    public func evaluate(_ call: RedisScriptCall) async throws -> RedisValue {
        try await evaluate([call])[0].checked()
    }

    /// Runs one script and calls `completion` with its reply (its error reply as a server ``RedisError``), without a
    /// task where it can: on a single Redis whose shared connection is open and holds the script, the call is written
    /// from the caller's thread and `completion` runs on the connection's event loop, so a caller that sends its next
    /// call from there hands nothing to another thread. Otherwise (connecting, a cluster, `NOSCRIPT` after Redis
    /// restarted) the call runs as the async `evaluate(_:)` runs it, in a task of its own.
    public func evaluate(_ call: RedisScriptCall, completion: @escaping @Sendable (Result<RedisValue, any Error>) -> Void) {
        guard case .single(let node) = servers, let connection = node.openConnection(), let digest = scripts.digest(of: call.script),
            let request = try? RedisScriptRegistry.request([call], digests: [digest])
        else { return evaluateInTask(call, completion: completion) }
        connection.exchange(request, replyCount: 1) { replies in
            switch replies.map({ $0[0] }) {
            case .success(let reply) where reply.isNoScript: self.evaluateInTask(call, completion: completion)
            case let outcome: completion(outcome.flatMap { reply in Result { try reply.checked() } })
            }
        }
    }

    private func evaluateInTask(_ call: RedisScriptCall, completion: @escaping @Sendable (Result<RedisValue, any Error>) -> Void) {
        Task {
            do {
                completion(.success(try await evaluate(call)))
            } catch {
                completion(.failure(error))
            }
        }
    }

    /// Runs scripts one after another, in order; error replies come back as `.error` values. On a cluster, the calls
    /// of each node go in one exchange, the nodes' in parallel.
    public func evaluate(_ calls: [RedisScriptCall]) async throws -> [RedisValue] {
        switch servers {
        case .single(let node): return try await scripts.run(calls, on: node.connection())
        case .cluster(let cluster): return try await cluster.evaluate(calls)
        }
    }

    /// Runs a blocking command (`BLPOP`, `XREAD BLOCK` …) on a connection of its own; its reply may take `blockFor`
    /// plus the command timeout.
    public func sendBlocking(_ arguments: [String], blockFor: Duration) async throws -> RedisValue {
        switch servers {
        case .single(let node): return try await node.blocking.send(arguments, blockFor: blockFor)
        case .cluster(let cluster): return try await cluster.sendBlocking(arguments, blockFor: blockFor)
        }
    }

    /// Runs a blocking command, then `call` the moment it returns, with no round trip in between: both go in one write
    /// on the command's own connection, and Redis runs a blocked client's next command as soon as the block ends.
    /// `read` gets the command's reply and the call's, error replies as `.error` values, and what it returns is the
    /// caller's. The call's is nil when it was not sent (its script not loaded yet by this pool, or on a cluster) or did
    /// not run (`NOSCRIPT`, after Redis restarted): making it is then the caller's. When the call was sent, `read` runs
    /// on the connection's event loop as the replies arrive, before the caller resumes: what it starts from there does
    /// not wait for the caller's task to wake on a thread of its own.
    public func sendBlocking<Read: Sendable>(
        _ arguments: [String], blockFor: Duration, then call: RedisScriptCall,
        reading read: @escaping @Sendable (_ reply: RedisValue, _ then: RedisValue?) -> Read
    ) async throws -> Read {
        guard case .single(let node) = servers, let digest = scripts.digest(of: call.script) else {
            return read(try await sendBlocking(arguments, blockFor: blockFor), nil)
        }
        var request = ByteBuffer()
        try request.writeRedisCommand(arguments)
        try request.writeScriptCall(call, digest: digest)
        return try await node.blocking.exchange(request, replyCount: 2, blockFor: blockFor) { replies in
            read(replies[0], replies[1].isNoScript ? nil : replies[1])
        }
    }

    /// Sends one command to every master of a cluster (to the single Redis otherwise), in parallel: `INFO` to sum a
    /// figure over them, `SCRIPT FLUSH`, `FLUSHALL`. An error reply is thrown as a server ``RedisError``.
    public func sendToEveryMaster(_ arguments: [String]) async throws -> [RedisNodeAddress: RedisValue] {
        switch servers {
        case .single(let node): return [node.address: try await node.connection().send(arguments)]
        case .cluster(let cluster): return try await cluster.sendToEveryMaster(arguments)
        }
    }

    /// Loads scripts ahead of their first call (on every master of a cluster), so a broken script stops the process at
    /// start. Every connection opened later loads them before it carries a command.
    public func load(_ scripts: [RedisScript]) async throws {
        switch servers {
        case .single(let node): try await self.scripts.load(scripts, on: node.connection())
        case .cluster(let cluster): try await cluster.load(scripts)
        }
    }

    /// Closes every connection; calls awaiting replies and later calls fail.
    public func close() async throws {
        switch servers {
        case .single(let node): node.close()
        case .cluster(let cluster): cluster.close()
        }
    }
}
