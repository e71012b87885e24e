public import Foundation
public import PostgresClient

/// The day partitions of the tables that grow with jobs (`jobs`, `artifacts`, `quota_ledger`): each is partitioned by
/// its job's id, whose first 48 bits are the submission's Unix milliseconds, so a day's jobs and everything of them sit
/// in that day's partitions (migrations/0009_job_partitions.sql, docs/postgres-at-scale.md). The SQL functions that
/// migration defines do the work; this is their Swift side.
public struct JobPartitions: Sendable {
    /// A day (UTC), as PostgreSQL's partitions count them.
    public struct Day: Sendable, Hashable, Comparable, CustomStringConvertible {
        /// Days since 1970-01-01.
        public let number: Int

        public init(number: Int) {
            self.number = number
        }

        /// The day `date` falls on.
        public init(containing date: Date) {
            self.init(number: Int((date.timeIntervalSince1970 / 86_400).rounded(.down)))
        }

        /// Its first instant.
        public var start: Date { Date(timeIntervalSince1970: Double(number) * 86_400) }
        /// The first instant of the next day.
        public var end: Date { Date(timeIntervalSince1970: Double(number + 1) * 86_400) }

        /// `days` later (earlier when negative).
        public func adding(_ days: Int) -> Day { Day(number: number + days) }

        public static func < (lhs: Day, rhs: Day) -> Bool { lhs.number < rhs.number }

        /// `yyyymmdd`, as in the partitions' names.
        public var description: String {
            let parts = Calendar(identifier: .gregorian).dateComponents(in: TimeZone(identifier: "UTC") ?? .current, from: start)
            return String(format: "%04d%02d%02d", parts.year ?? 0, parts.month ?? 0, parts.day ?? 0)
        }
    }

    /// How many days from today the purge keeps partitions for, so a week without a purge still finds them made.
    public static let daysAhead = 7

    private let pool: PostgresPool

    public init(pool: PostgresPool) {
        self.pool = pool
    }

    /// Creates the partitions missing from `first` through ``daysAhead`` days later. - Returns: how many tables it made.
    @discardableResult
    public func createAhead(from first: Day) async throws -> Int {
        try await pool.query(
            "SELECT create_job_partitions(DATE '1970-01-01' + $1::int, $2::int) AS created", [first.number, Self.daysAhead + 1]
        ).first?.decode("created", as: Int.self) ?? 0
    }

    /// The days that have partitions, oldest first.
    public func days() async throws -> [Day] {
        try await pool.query("SELECT (d - DATE '1970-01-01') AS day FROM job_partition_days() AS d").map {
            Day(number: try $0.decode("day", as: Int.self))
        }
    }

    /// Whether `day`'s partitions hold an artifact stored at `cutoff` or later.
    public func holdsArtifacts(of day: Day, storedSince cutoff: Date) async throws -> Bool {
        try await !pool.query(
            """
            SELECT 1 FROM artifacts WHERE job_id >= job_id_floor(DATE '1970-01-01' + $1::int)
                AND job_id < job_id_floor(DATE '1970-01-01' + $1::int + 1) AND created_at >= $2 LIMIT 1
            """,
            [day.number, cutoff]
        ).isEmpty
    }

    /// The artifacts in `day`'s partition, with their tenant: what the object store holds for it.
    public func artifacts(of day: Day) async throws -> [(tenant: String, job: String, path: String)] {
        try await pool.query(
            """
            SELECT tenant_id, job_id::text AS job_id, path FROM artifacts
            WHERE job_id >= job_id_floor(DATE '1970-01-01' + $1::int) AND job_id < job_id_floor(DATE '1970-01-01' + $1::int + 1)
            """,
            [day.number]
        ).map {
            (
                tenant: try $0.decode("tenant_id", as: String.self), job: try $0.decode("job_id", as: String.self),
                path: try $0.decode("path", as: String.self)
            )
        }
    }

    /// Drops `day`'s partitions of every table, rows and all. - Returns: how many tables it dropped.
    @discardableResult
    public func drop(_ day: Day) async throws -> Int {
        try await pool.query("SELECT drop_job_partitions(DATE '1970-01-01' + $1::int) AS dropped", [day.number]).first?.decode(
            "dropped", as: Int.self) ?? 0
    }
}
