import Foundation
import Locking

/// A connection leased to one caller by ``PostgresPool/withConnection(_:)`` or ``PostgresPool/withTransaction(_:)``,
/// valid until that call returns.
///
/// Its statements run on the pool's loop like the pipelined ones, but no other caller's statement shares the
/// connection, so a transaction's state stays the caller's. Every session is set to `TimeZone=UTC`,
/// `DateStyle=ISO` and `bytea_output=hex`, the forms the decoders read, and to the configuration's statement
/// timeout and search path.
public final class PostgresConnection: Sendable {
    private let loop: QueryLoop
    private let id: Int
    private let isReleased = Locked(false)

    init(loop: QueryLoop, id: Int) {
        self.loop = loop
        self.id = id
    }

    /// Runs one statement with `$1 … $n` parameters sent apart from the SQL (`PQsendQueryParams`, text format).
    @discardableResult
    public func query(_ sql: String, _ parameters: [any PostgresEncodable] = []) async throws -> PostgresRows {
        try await run(QueryRequest.Statement(sql: sql, parameters: parameters))
    }

    /// Runs one statement and returns how many rows it inserted, updated or deleted.
    @discardableResult
    public func execute(_ sql: String, _ parameters: [any PostgresEncodable] = []) async throws -> Int {
        try await query(sql, parameters).affectedRows
    }

    /// Runs several `;`-separated statements in one call (`PQsendQuery`), for migration files only: it takes no
    /// parameters, so its text must never be built from data.
    public func executeScript(_ sql: String) async throws {
        try await run(QueryRequest.Statement(script: sql))
    }

    /// Runs `body` between `BEGIN` and `COMMIT`; rolls back when it throws, or when a statement failed inside it
    /// even though `body` caught that error.
    public func withTransaction<T>(_ body: () async throws -> T) async throws -> T {
        try await execute("BEGIN")
        let value: T
        do {
            value = try await body()
        } catch {
            _ = try? await execute("ROLLBACK")
            throw error
        }
        // `COMMIT` of a failed transaction rolls back without an error: say so instead of returning as if saved.
        guard try await query("COMMIT").command == "COMMIT" else {
            throw PostgresError.transactionAborted
        }
        return value
    }

    /// `name` as a quoted SQL identifier, for the few statements that cannot take it as a parameter
    /// (`CREATE SCHEMA`, `search_path`).
    public static func quoteIdentifier(_ name: String) -> String {
        "\"" + name.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    @discardableResult
    private func run(_ statement: QueryRequest.Statement) async throws -> PostgresRows {
        guard !isReleased.withLock({ $0 }) else {
            throw PostgresError.connection("the connection was used after its lease ended")
        }
        return try await loop.perform(statement, on: id)
    }

    /// Gives the connection back to the pool; later statements on it fail.
    func release() {
        let wasReleased = isReleased.withLock { isReleased in
            defer { isReleased = true }
            return isReleased
        }
        guard !wasReleased else { return }
        loop.release(id)
    }
}
