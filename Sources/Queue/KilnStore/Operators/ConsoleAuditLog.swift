public import Foundation
public import PostgresClient

/// What operators did in the console, kept in PostgreSQL: who, what, on what, when, and how it went.
public struct ConsoleAuditLog: Sendable {
    /// One action.
    public struct Entry: Sendable, Hashable {
        public var id: Int64
        public var at: Date
        public var operatorName: String
        /// What was done: `replay`, `cancel`, `key.create`, `tenant.pause`, …
        public var action: String
        /// On what: a job id, a tenant, `tenant/identity`, a key's prefix.
        public var target: String
        public var note: String
        /// `done`, `refused` (a viewer, a bad CSRF token) or what went wrong.
        public var outcome: String
        /// Where the request came from; empty for entries from before it was kept.
        public var address: String
    }

    private let pool: PostgresPool

    public init(pool: PostgresPool) {
        self.pool = pool
    }

    /// Writes one entry; `address` is where the request came from.
    public func record(operator name: String, action: String, target: String, note: String = "", outcome: String, address: String) async throws {
        _ = try await pool.query(
            "INSERT INTO console_audit (operator, action, target, note, outcome, address) VALUES ($1, $2, $3, $4, $5, $6)",
            [name, action, target, note, outcome, address])
    }

    /// What an operator looks for in the log; each field left nil matches every entry.
    public struct Filter: Sendable, Hashable {
        public var operatorName: String?
        public var action: String?
        /// Entries whose target holds this text: a tenant's id finds its keys, lanes and identities.
        public var targetContaining: String?
        public var from: Date?
        public var before: Date?

        public init() {}
    }

    /// The latest entries `filter` matches older than `before` (an entry's id; nil for the newest), newest first.
    public func page(matching filter: Filter = Filter(), before: Int64?, limit: Int) async throws -> [Entry] {
        try await pool.query(
            """
            SELECT id, at, operator, action, target, note, outcome, address FROM console_audit
            WHERE ($1::bigint IS NULL OR id < $1) AND ($3::text IS NULL OR operator = $3) AND ($4::text IS NULL OR action = $4)
              AND ($5::text IS NULL OR strpos(target, $5) > 0) AND ($6::timestamptz IS NULL OR at >= $6)
              AND ($7::timestamptz IS NULL OR at < $7)
            ORDER BY id DESC LIMIT $2
            """,
            [before, limit, filter.operatorName, filter.action, filter.targetContaining, filter.from, filter.before]
        ).map { row in
            Entry(
                id: try row.decode("id", as: Int64.self), at: try row.decode("at", as: Date.self),
                operatorName: try row.decode("operator", as: String.self), action: try row.decode("action", as: String.self),
                target: try row.decode("target", as: String.self), note: try row.decode("note", as: String.self),
                outcome: try row.decode("outcome", as: String.self), address: try row.decode("address", as: String.self))
        }
    }
}
