import ConnectionPooling

/// Connections to one PostgreSQL database, each used by one caller at a time on a thread of the pool's own,
/// since libpq blocks.
public final class PostgresPool: Sendable {
    public let configuration: PostgresConfiguration
    private let pool: ThreadedConnectionPool<PostgresConnection>

    /// Starts `configuration.poolSize` threads; connections open on first use.
    public init(configuration: PostgresConfiguration) {
        self.configuration = configuration
        self.pool = ThreadedConnectionPool(configuration: configuration, size: configuration.poolSize, closedError: PostgresError.poolClosed)
    }

    /// Runs `body` with a connection on one of the pool's threads. A connection that broke, or that `body` left
    /// inside a transaction, is closed rather than handed to the next caller.
    public func withConnection<T: Sendable>(_ body: @escaping @Sendable (PostgresConnection) throws -> T) async throws -> T {
        try await pool.withConnection(body)
    }
    /// Runs `body` in a transaction on one connection: `COMMIT` when it returns, `ROLLBACK` when it throws.
    public func withTransaction<T: Sendable>(_ body: @escaping @Sendable (PostgresConnection) throws -> T) async throws -> T {
        try await withConnection { connection in
            try connection.withTransaction { try body(connection) }
        }
    }

    /// Runs one statement and returns its rows.
    @discardableResult
    public func query(_ sql: String, _ parameters: [any PostgresEncodable] = []) async throws -> PostgresRows {
        try await withConnection { try $0.query(sql, parameters) }
    }

    /// Runs one statement and returns how many rows it inserted, updated or deleted.
    @discardableResult
    public func execute(_ sql: String, _ parameters: [any PostgresEncodable] = []) async throws -> Int {
        try await withConnection { try $0.execute(sql, parameters) }
    }

    /// Closes idle connections and stops the threads; callers waiting for a connection get an error.
    public func close() async throws {
        try await pool.close()
    }
}
