import NIOCore
import Locking

/// One Redis server's connections: the shared ones, which load the pool's scripts when they open, and the blocking
/// ones. The pool has one of these for a single Redis, and one per master of a cluster.
final class RedisNodeConnections: Sendable {
    let address: RedisNodeAddress
    private let shared: [RedisReconnectingConnection]
    private let nextShared = Locked<Int>(0)
    let blocking: RedisBlockingConnections

    /// Connects to `address` as `configuration` says (its host and port aside); nothing opens before first use.
    init(_ address: RedisNodeAddress, configuration: RedisConfiguration, group: any EventLoopGroup, scripts: RedisScriptRegistry) {
        var configuration = configuration
        configuration.host = address.host
        configuration.port = address.port
        self.address = address
        self.shared = (0..<max(configuration.sharedConnections, 1)).map { _ in
            RedisReconnectingConnection(configuration: configuration, group: group, prepare: scripts.loadAll(on:))
        }
        self.blocking = RedisBlockingConnections(configuration: configuration, group: group)
    }

    /// The next shared connection in turn, connecting first when it has none.
    func connection() async throws -> RedisConnection {
        let index = nextShared.withLock { next in
            defer { next = (next + 1) % shared.count }
            return next
        }
        return try await shared[index].connection()
    }

    /// Closes every connection; calls awaiting replies and later calls fail.
    func close() {
        for connection in shared { connection.close() }
        blocking.close()
    }
}
