public import Foundation
public import KilnCore
public import PostgresClient

/// The console's searches over the jobs' records: every job by what an operator knows of it, and the dead letters.
/// Both page by keyset, never by offset, so the millionth row costs what the first page does.
public struct JobSearch: Sendable {
    /// What to look for; nil matches anything.
    public struct Filter: Sendable, Hashable {
        public var tenant: TenantID?
        public var identity: Identity?
        public var kind: String?
        public var state: JobState?
        public var createdFrom: Date?
        public var createdBefore: Date?

        public init(
            tenant: TenantID? = nil, identity: Identity? = nil, kind: String? = nil, state: JobState? = nil, createdFrom: Date? = nil,
            createdBefore: Date? = nil
        ) {
            self.tenant = tenant
            self.identity = identity
            self.kind = kind
            self.state = state
            self.createdFrom = createdFrom
            self.createdBefore = createdBefore
        }
    }

    /// Where a page ends: the last row's time and id. The next page starts strictly after it.
    public struct Cursor: Sendable, Hashable {
        public var at: Date
        public var id: JobID

        public init(at: Date, id: JobID) {
            self.at = at
            self.id = id
        }

        /// `<milliseconds>_<job id>`, for a link.
        public var text: String { "\(Int64((at.timeIntervalSince1970 * 1000).rounded(.down)))_\(id.rawValue)" }

        public init?(text: String) {
            let parts = text.split(separator: "_", maxSplits: 1)
            guard parts.count == 2, let milliseconds = Int64(parts[0]), let id = JobID(validating: String(parts[1])) else { return nil }
            self.init(at: Date(timeIntervalSince1970: Double(milliseconds) / 1000), id: id)
        }
    }

    private let pool: PostgresPool

    public init(pool: PostgresPool) {
        self.pool = pool
    }

    /// Jobs matching `filter`, newest first, after `cursor`.
    public func jobs(_ filter: Filter, after cursor: Cursor?, limit: Int) async throws -> [JobRecord] {
        let statement = Self.statement(filter, after: cursor, limit: limit)
        return try await pool.query(statement.sql, statement.parameters).map(JobRecord.init(row:))
    }

    /// PostgreSQL's plan for ``jobs(_:after:limit:)`` (`EXPLAIN`), a line a node: which indexes a search reads.
    public func plan(_ filter: Filter, after cursor: Cursor?, limit: Int) async throws -> String {
        let statement = Self.statement(filter, after: cursor, limit: limit)
        return try await pool.query("EXPLAIN " + statement.sql, statement.parameters).map { try $0.decode("QUERY PLAN", as: String.self) }
            .joined(separator: "\n")
    }

    /// The search's SQL: each field of the filter a condition on its parameter, the order one the indexes keep
    /// (`migrations/0012_job_search_indexes.sql`).
    private static func statement(_ filter: Filter, after cursor: Cursor?, limit: Int) -> (sql: String, parameters: [any PostgresEncodable]) {
        var conditions: [String] = []
        var parameters: [any PostgresEncodable] = []
        func add(_ condition: (String) -> String, _ value: any PostgresEncodable) {
            parameters.append(value)
            conditions.append(condition("$\(parameters.count)"))
        }
        if let tenant = filter.tenant { add({ "tenant_id = \($0)" }, tenant.rawValue) }
        if let identity = filter.identity { add({ "identity = \($0)" }, identity.rawValue) }
        if let kind = filter.kind { add({ "kind = \($0)" }, kind) }
        if let state = filter.state { add({ "state = \($0)" }, state.rawValue) }
        if let from = filter.createdFrom { add({ "created_at >= \($0)" }, from) }
        if let before = filter.createdBefore { add({ "created_at < \($0)" }, before) }
        if let cursor {
            parameters.append(cursor.at)
            parameters.append(cursor.id.rawValue)
            conditions.append("(created_at, id) < ($\(parameters.count - 1), $\(parameters.count)::uuid)")
        }
        parameters.append(limit)
        let condition = conditions.isEmpty ? "" : "WHERE " + conditions.joined(separator: " AND ")
        return ("SELECT \(JobRecord.columns) FROM jobs \(condition) ORDER BY created_at DESC, id DESC LIMIT $\(parameters.count)", parameters)
    }

    /// Dead letters (jobs that failed for good or ran out of attempts) not discarded, the latest to end first, after `cursor`; `tenant` and `kind` narrow them.
    public func deadLetters(tenant: TenantID?, kind: String?, after cursor: Cursor?, limit: Int) async throws -> [JobRecord] {
        try await pool.query(
            """
            SELECT \(JobRecord.columns) FROM jobs
            WHERE state IN ('failed', 'dead') AND discarded_at IS NULL
              AND ($1::text IS NULL OR tenant_id = $1) AND ($2::text IS NULL OR kind = $2)
              AND ($3::timestamptz IS NULL OR (finished_at, id) < ($3, $4::uuid))
            ORDER BY finished_at DESC, id DESC LIMIT $5
            """,
            [tenant?.rawValue, kind, cursor?.at, cursor?.id.rawValue, limit]
        ).map(JobRecord.init(row:))
    }

    /// How many dead letters not discarded match `tenant` and `kind` (nil matches any): what a bulk action on them
    /// will act on.
    public func deadLetterCount(tenant: TenantID?, kind: String?) async throws -> Int {
        try await pool.query(
            """
            SELECT count(*) AS n FROM jobs WHERE state IN ('failed', 'dead') AND discarded_at IS NULL
              AND ($1::text IS NULL OR tenant_id = $1) AND ($2::text IS NULL OR kind = $2)
            """,
            [tenant?.rawValue, kind]
        ).first?.decode("n", as: Int.self) ?? 0
    }

    /// Marks dead letters discarded, so they leave the list; their records stay. `nil` discards every one, as
    /// `kiln dead purge` without an id does. - Returns: how many were.
    @discardableResult
    public func discard(_ ids: [JobID]?) async throws -> Int {
        guard ids?.isEmpty != true else { return 0 }
        return try await pool.query(
            """
            WITH discarded AS (
                UPDATE jobs SET discarded_at = now()
                WHERE ($1::uuid[] IS NULL OR id = ANY($1::uuid[])) AND state IN ('failed', 'dead') AND discarded_at IS NULL RETURNING 1
            ) SELECT count(*) AS n FROM discarded
            """,
            [ids.map { $0.map(\.rawValue) }]
        ).first?.decode("n", as: Int.self) ?? 0
    }

    /// One job's record, whoever's it is.
    public func job(_ id: JobID) async throws -> JobRecord? {
        try await pool.query("SELECT \(JobRecord.columns) FROM jobs WHERE id = $1", [id.rawValue]).first.map(JobRecord.init(row:))
    }
}
