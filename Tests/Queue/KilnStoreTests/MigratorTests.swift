import Foundation
import KilnStore
import PostgresClient
import Testing

@Suite struct MigratorTests {
    /// The versions of the checked-in migration files.
    static var shippedVersions: [Int] {
        get throws {
            try FileManager.default.contentsOfDirectory(atPath: TestDatabase.migrations.path).compactMap { Int($0.prefix(4)) }.sorted()
        }
    }

    @Test func appliesOnceThenNothing() async throws {
        try await TestDatabase.withSchema(.absent) { pool in
            let migrator = Migrator(pool: pool, directory: TestDatabase.migrations)
            #expect(try await migrator.migrate() == Self.shippedVersions)
            #expect(try await migrator.migrate() == [])
            // Tables, not their partitions (migrations/0009_job_partitions.sql).
            let tables = try await pool.query(
                """
                SELECT c.relname::text AS table_name FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
                WHERE n.nspname = $1 AND c.relkind IN ('r', 'p') AND NOT c.relispartition ORDER BY c.relname
                """,
                [pool.configuration.searchPath]
            ).map { try $0.decode("table_name", as: String.self) }
            #expect(
                tables == [
                    "api_keys", "artifacts", "campaign_scenes", "campaigns", "console_audit", "entitlements", "jobs", "operator_sessions",
                    "operators", "partner_invitations", "partner_links", "processed_events", "provider_usage",
                    "quota_ledger", "schema_migrations", "share_files", "shares", "tenants", "uploads", "webhook_secrets",
                ])
            let recorded = try #require(try await pool.query("SELECT name, checksum FROM schema_migrations WHERE version = 1").first)
            #expect(try recorded.decode("name", as: String.self) == "0001_core.sql")
            #expect(try recorded.decode("checksum", as: String.self).count == 64)
        }
    }

    @Test func concurrentMigratorsApplyEachFileOnce() async throws {
        try await TestDatabase.withSchema(.absent) { pool in
            let migrator = Migrator(pool: pool, directory: TestDatabase.migrations)
            async let first = migrator.migrate()
            async let second = migrator.migrate()
            let applied = try await first + second
            #expect(applied.sorted() == (try Self.shippedVersions))
        }
    }

    @Test func changedFileIsRefused() async throws {
        try await TestDatabase.withTemporaryDirectory { directory in
            try await TestDatabase.withSchema(.absent) { pool in
                try write("CREATE TABLE a (x int);", to: directory, "0001_a.sql")
                try write("CREATE TABLE b (x int);", to: directory, "0002_b.sql")
                let migrator = Migrator(pool: pool, directory: directory)
                #expect(try await migrator.migrate() == [1, 2])
                try write("CREATE TABLE b (x int, y int);", to: directory, "0002_b.sql")
                try write("CREATE TABLE c (x int);", to: directory, "0003_c.sql")
                let error = try await #require(throws: MigrationError.self) { try await migrator.migrate() }
                #expect(error.code == .checksumMismatch)
                #expect(error.file == "0002_b.sql")
                #expect(error.description.contains("0002_b.sql"))
                // Refused before anything ran: 0003 is not applied.
                #expect(try await pool.query("SELECT 1 FROM schema_migrations WHERE version = 3").isEmpty)
            }
        }
    }

    @Test func missingAppliedFileIsRefused() async throws {
        try await TestDatabase.withTemporaryDirectory { directory in
            try await TestDatabase.withSchema(.absent) { pool in
                try write("CREATE TABLE a (x int);", to: directory, "0001_a.sql")
                try write("CREATE TABLE b (x int);", to: directory, "0002_b.sql")
                let migrator = Migrator(pool: pool, directory: directory)
                _ = try await migrator.migrate()
                try FileManager.default.removeItem(at: directory.appendingPathComponent("0002_b.sql"))
                let error = try await #require(throws: MigrationError.self) { try await migrator.migrate() }
                #expect(error.code == .fileMissing)
                #expect(error.file == "0002_b.sql")
            }
        }
    }

    @Test(arguments: ["1_short.sql", "0001-dash.sql", "0001_Upper.sql", "0001_.sql", "0001_a.txt", "readme.md", "0000_zero.sql"])
    func badlyNamedFileIsRejected(name: String) async throws {
        try await TestDatabase.withTemporaryDirectory { directory in
            try await TestDatabase.withSchema(.absent) { pool in
                try write("CREATE TABLE a (x int);", to: directory, "0001_a.sql")
                try write("SELECT 1;", to: directory, name)
                let error = try await #require(throws: MigrationError.self) {
                    try await Migrator(pool: pool, directory: directory).migrate()
                }
                #expect(error.code == .invalidFileName)
                #expect(error.file == name)
            }
        }
    }

    @Test func duplicateVersionIsRejected() async throws {
        try await TestDatabase.withTemporaryDirectory { directory in
            try await TestDatabase.withSchema(.absent) { pool in
                try write("CREATE TABLE a (x int);", to: directory, "0001_a.sql")
                try write("CREATE TABLE b (x int);", to: directory, "0001_b.sql")
                let error = try await #require(throws: MigrationError.self) {
                    try await Migrator(pool: pool, directory: directory).migrate()
                }
                #expect(error.code == .duplicateVersion)
            }
        }
    }

    @Test func failingFileLeavesNothingBehind() async throws {
        try await TestDatabase.withTemporaryDirectory { directory in
            try await TestDatabase.withSchema(.absent) { pool in
                try write("CREATE TABLE a (x int);", to: directory, "0001_a.sql")
                try write("CREATE TABLE b (x int);\nSELECT missing_column FROM b;", to: directory, "0002_b.sql")
                let migrator = Migrator(pool: pool, directory: directory)
                let error = try await #require(throws: MigrationError.self) { try await migrator.migrate() }
                #expect(error.code == .failed)
                #expect(error.file == "0002_b.sql")
                #expect(try await pool.query("SELECT to_regclass('b') IS NULL AS absent").first?.decode("absent", as: Bool.self) == true)
                let versions = try await pool.query("SELECT version FROM schema_migrations").map { try $0.decode("version", as: Int.self) }
                #expect(versions == [1])
            }
        }
    }

    private func write(_ text: String, to directory: URL, _ name: String) throws {
        try Data(text.utf8).write(to: directory.appendingPathComponent(name))
    }
}
