import Foundation
import KilnCore
import KilnStore
import PostgresClient
import Testing

/// migrations/0009_job_partitions.sql against the real PostgreSQL: jobs, artifacts and the quota ledger partitioned by
/// the day in their job's id.
@Suite struct JobPartitionsTests {
    private let tenant: TenantID
    private let identity: Identity

    init() throws {
        tenant = try #require(TenantID(validating: "acme"))
        identity = try #require(Identity(validating: "user-1"))
    }

    private func job(_ id: JobID, attempt: Int = 1, created: Date = Date()) -> JobRecord {
        JobRecord(
            id: id, tenant: tenant, identity: identity, kind: "diag.echo", priority: .normal, state: .succeeded, attempt: attempt,
            maxAttempts: 3, input: #"{"n": 1}"#, result: #"{"attempt": \#(attempt)}"#, createdAt: created, finishedAt: created)
    }

    private func charge(_ id: JobID) -> QuotaLedgerEntry {
        QuotaLedgerEntry(job: id, tenant: tenant, subject: identity.rawValue, day: "20260101", quotaClass: "text", units: 1, outcome: .committed)
    }

    /// Every row of the three tables as text, in one order: what must survive the migration unchanged.
    private func rows(_ pool: PostgresPool) async throws -> [String] {
        var lines: [String] = []
        for table in ["jobs", "artifacts", "quota_ledger"] {
            lines += try await pool.query("SELECT t::text AS row FROM \(table) t ORDER BY t::text").map {
                "\(table): " + (try $0.decode("row", as: String.self))
            }
        }
        return lines
    }

    /// The partition that holds `id`'s row of `table`.
    private func partition(of id: JobID, in table: String, _ pool: PostgresPool) async throws -> String? {
        let key = table == "jobs" ? "id" : "job_id"
        return try await pool.query("SELECT tableoid::regclass::text AS part FROM \(table) WHERE \(key) = $1", [id.rawValue]).first?.decode(
            "part", as: String.self)
    }

    @Test func aDatabaseAt0008KeepsEveryRowAt0009() async throws {
        try await TestDatabase.withTemporaryDirectory { directory in
            try await TestDatabase.withSchema(.absent) { pool in
                let shipped = try FileManager.default.contentsOfDirectory(atPath: TestDatabase.migrations.path).sorted()
                for name in shipped where name < "0009" {
                    try FileManager.default.copyItem(
                        at: TestDatabase.migrations.appendingPathComponent(name), to: directory.appendingPathComponent(name))
                }
                #expect(try await Migrator(pool: pool, directory: directory).migrate() == Array(1...8))
                _ = try await TenantStore(pool: pool).create(id: tenant, name: "Acme")
                // A version 4 id (made before ids carried their time), one of today and one of 40 days ago.
                let today = JobID(shard: 0)
                let old = JobID(shard: 2, milliseconds: Int64(Date().addingTimeInterval(-40 * 86_400).timeIntervalSince1970 * 1000))
                let legacy = JobID(lowercaseUUID: UUID().uuidString.lowercased())
                let ids = [today, old, legacy]
                #expect(try await JobStore(pool: pool).record(ids.map { job($0) }) == 3)
                try await QuotaLedger(pool: pool).record(ids.map(charge))
                for id in ids {
                    try await pool.execute(
                        """
                        INSERT INTO artifacts (job_id, tenant_id, name, attempt, content_type, size_bytes, sha256, path)
                        VALUES ($1, $2, 'cover.png', 1, 'image/png', 3, 'abc', $3)
                        """,
                        [id.rawValue, tenant.rawValue, "tenants/acme/jobs/\(id)/1/cover.png"])
                }
                let before = try await rows(pool)
                #expect(before.count == 9)

                try FileManager.default.copyItem(
                    at: TestDatabase.migrations.appendingPathComponent("0009_job_partitions.sql"),
                    to: directory.appendingPathComponent("0009_job_partitions.sql"))
                #expect(try await Migrator(pool: pool, directory: directory).migrate() == [9])
                #expect(try await rows(pool) == before)
                // Today's job moved into today's partitions; the others stay in the default ones, where they are found.
                let day = JobPartitions.Day(containing: Date())
                for table in ["jobs", "artifacts", "quota_ledger"] {
                    #expect(try await partition(of: today, in: table, pool) == "\(table)_p\(day)")
                    #expect(try await partition(of: old, in: table, pool) == "\(table)_default")
                    #expect(try await partition(of: legacy, in: table, pool) == "\(table)_default")
                }
                for id in ids { #expect(try await JobStore(pool: pool).find(id: id, tenant: tenant)?.id == id) }
                // The recorder's upsert still finds the row by its conflict target, in a partition and in the default.
                #expect(try await JobStore(pool: pool).record([job(today, attempt: 2), job(legacy, attempt: 2)]) == 2)
                #expect(try await pool.query("SELECT count(*)::int AS n FROM jobs WHERE attempt = 2").first?.decode("n", as: Int.self) == 2)
                #expect(try await pool.query("SELECT count(*)::int AS n FROM jobs").first?.decode("n", as: Int.self) == 3)
            }
        }
    }

    /// The queries by id, as the stores send them (parameters, so the server plans them as the API's lookups), touch
    /// one partition: the id's day, or the default one for an id of no day with a partition.
    @Test func aLookupByIdReadsOnePartition() async throws {
        try await TestDatabase.withSchema { pool in
            _ = try await TenantStore(pool: pool).create(id: tenant, name: "Acme")
            let id = JobID(shard: 0)
            let day = JobPartitions.Day(containing: Date())
            let legacy = JobID(lowercaseUUID: "8b0e3a52-5d7e-4c1b-9f4e-2f6a1c3d5e7f")
            let lookups = [
                ("jobs", "SELECT * FROM jobs WHERE id = $1 AND tenant_id = $2"),
                ("artifacts", "SELECT * FROM artifacts WHERE job_id = $1 AND tenant_id = $2 ORDER BY name"),
                ("quota_ledger", "SELECT * FROM quota_ledger WHERE job_id = $1 AND tenant_id = $2"),
                ("jobs", "UPDATE jobs SET discarded_at = now() WHERE id = $1 AND tenant_id = $2"),
            ]
            for (table, sql) in lookups {
                for (job, expected) in [(id, "\(table)_p\(day)"), (legacy, "\(table)_default")] {
                    let plan = try await pool.query("EXPLAIN " + sql, [job.rawValue, tenant.rawValue]).map {
                        try $0.decode("QUERY PLAN", as: String.self)
                    }
                    .joined(separator: "\n")
                    let scanned = Set(plan.matches(of: /\b(\w+)_(p\d{8}|default)\b/).map { "\($0.1)_\($0.2)" })
                    #expect(scanned == [expected], "\(sql): \(plan)")
                }
            }
        }
    }

    /// An id of a day with no partition (no purge ran for a week) lands in the default partition, and moves into its
    /// own when the purge makes it: no insert fails, no row is lost.
    @Test func aDayWithoutAPartitionGoesToTheDefaultUntilItIsMade() async throws {
        try await TestDatabase.withSchema { pool in
            _ = try await TenantStore(pool: pool).create(id: tenant, name: "Acme")
            let later = Date().addingTimeInterval(20 * 86_400)
            let id = JobID(shard: 0, milliseconds: Int64(later.timeIntervalSince1970 * 1000))
            #expect(try await JobStore(pool: pool).record([job(id, created: later)]) == 1)
            try await QuotaLedger(pool: pool).record([charge(id)])
            #expect(try await partition(of: id, in: "jobs", pool) == "jobs_default")

            let partitions = JobPartitions(pool: pool)
            let day = JobPartitions.Day(containing: later)
            #expect(try await partitions.createAhead(from: day) == 3 * (JobPartitions.daysAhead + 1))
            #expect(try await partitions.createAhead(from: day) == 0, "a second run finds them made")
            #expect(try await partition(of: id, in: "jobs", pool) == "jobs_p\(day)")
            #expect(try await partition(of: id, in: "quota_ledger", pool) == "quota_ledger_p\(day)")
            #expect(try await JobStore(pool: pool).find(id: id, tenant: tenant)?.result == #"{"attempt": 1}"#)
            #expect(try await partitions.days().contains(day.adding(JobPartitions.daysAhead)))
        }
    }
}
