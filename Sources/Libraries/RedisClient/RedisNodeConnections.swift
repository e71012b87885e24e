import NIOCore
import Locking

/// One Redis server's connections: the shared ones, which load the pool's scripts when they open, and the blocking
/// ones. The pool has one of these for a single Redis, and one per master of a cluster.
///
/// Each event loop of the group has shared connections of its own. A caller running on one of those loops (a process
/// that made the loops Swift Concurrency's executor, as the API node does) gets one of its own loop's, so its command
/// is written and its reply read on the thread it runs on, with no hand-off between threads either way.
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
        let loops = Array(group.makeIterator())
        self.shared = (0..<max(configuration.sharedConnections, 1)).flatMap { _ in
            loops.map { RedisReconnectingConnection(configuration: configuration, eventLoop: $0, prepare: scripts.loadAll(on:)) }
        }
        self.blocking = RedisBlockingConnections(configuration: configuration, group: group)
    }

    /// A shared connection of the caller's own event loop, else the next in turn; it connects first when it has none.
    func connection() async throws -> RedisConnection {
        try await chosen().connection()
    }

    /// The connection ``connection()`` would give, when it is open: nil when it would have to connect first.
    func openConnection() -> RedisConnection? {
        chosen().open
    }

    private func chosen() -> RedisReconnectingConnection {
        if let own = shared.first(where: { $0.eventLoop.inEventLoop }) { return own }
        let index = nextShared.withLock { next in
            defer { next = (next + 1) % shared.count }
            return next
        }
        return shared[index]
    }

    /// Closes every connection; calls awaiting replies and later calls fail.
    func close() {
        for connection in shared { connection.close() }
        blocking.close()
    }
}
