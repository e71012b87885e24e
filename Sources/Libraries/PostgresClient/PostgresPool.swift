import Foundation

/// Connections to one PostgreSQL database, driven by one event-loop thread of the pool's own, so no query blocks a
/// thread while it waits.
///
/// ``query(_:_:)`` and ``execute(_:_:)`` from any number of tasks share a few connections
/// (``PostgresConfiguration/pipelinedConnections``) in libpq's pipeline mode: the statements of concurrent calls are
/// sent together and answered in order, each in its own implicit transaction, so one statement's error touches no
/// other. A transaction needs a connection of its own: ``withTransaction(_:)`` leases one, driven by the same loop.
///
/// A caller's task that is cancelled still waits for its statement's answer, since a pipelined statement cannot be
/// withdrawn; ``PostgresConfiguration/queryTimeout`` bounds the wait.
public final class PostgresPool: Sendable {
    public let configuration: PostgresConfiguration
    private let loop: QueryLoop

    /// Starts the pool's thread; connections open on first use.
    /// - Throws: ``PostgresError`` when the loop's epoll set cannot be made (the process is out of descriptors).
    public init(configuration: PostgresConfiguration) throws {
        self.configuration = configuration
        self.loop = try QueryLoop(configuration: configuration)
        let loop = self.loop
        let thread = Thread { loop.run() }
        thread.name = "kiln.postgres"
        thread.start()
    }

    deinit {
        loop.requestStop()
    }

    /// Runs one statement and returns its rows.
    @discardableResult
    public func query(_ sql: String, _ parameters: [any PostgresEncodable] = []) async throws -> PostgresRows {
        try await loop.perform(QueryRequest.Statement(sql: sql, parameters: parameters))
    }

    /// Runs one statement and returns how many rows it inserted, updated or deleted.
    @discardableResult
    public func execute(_ sql: String, _ parameters: [any PostgresEncodable] = []) async throws -> Int {
        try await query(sql, parameters).affectedRows
    }

    /// Runs `body` with a connection of its own, for statements that share a session (several transactions, a
    /// transaction-scoped lock). A connection that broke, or that `body` left inside a transaction, is closed rather
    /// than handed to the next caller.
    public func withConnection<T>(_ body: (PostgresConnection) async throws -> T) async throws -> T {
        let connection = PostgresConnection(loop: loop, id: try await loop.lease())
        defer { connection.release() }
        return try await body(connection)
    }

    /// Runs `body` in a transaction on a connection of its own: `COMMIT` when it returns, `ROLLBACK` when it throws.
    public func withTransaction<T>(_ body: (PostgresConnection) async throws -> T) async throws -> T {
        try await withConnection { connection in
            try await connection.withTransaction { try await body(connection) }
        }
    }

    /// Fails what is queued or in flight with an unavailable error, closes the connections and stops the thread.
    public func close() async throws {
        await loop.stop()
    }
}
