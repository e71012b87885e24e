import Foundation
import KilnStore
import PostgresClient
import Testing

/// A schema of its own in the test database for one test, dropped afterwards, so tests run in parallel.
enum TestDatabase {
    /// `migrations/` at the package root.
    static let migrations = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
        .appendingPathComponent("migrations")

    static func configuration() throws -> PostgresConfiguration {
        let url = try #require(
            ProcessInfo.processInfo.environment["KILN_TEST_DATABASE_URL"].flatMap { $0.isEmpty ? nil : $0 },
            "KILN_TEST_DATABASE_URL is not set: these tests need PostgreSQL, e.g. postgresql://kiln@127.0.0.1:5491/kiln"
        )
        var configuration = PostgresConfiguration(url: url)
        configuration.leasedConnections = 4
        return configuration
    }

    /// What the fresh schema holds when the test starts.
    enum Setup {
        /// The schema does not exist yet.
        case absent
        /// The schema exists and is empty.
        case empty
        /// The schema holds `migrations/`.
        case migrated
    }

    /// Runs `body` with a pool whose search path is a fresh schema.
    static func withSchema<T>(
        _ setup: Setup = .migrated,
        configure: (inout PostgresConfiguration) -> Void = { _ in },
        _ body: (PostgresPool) async throws -> T
    ) async throws -> T {
        var configuration = try configuration()
        let schema = "kiln_test_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "")
        configuration.searchPath = schema
        configure(&configuration)
        let pool = try PostgresPool(configuration: configuration)
        do {
            try await pool.execute("SELECT 1")
        } catch {
            try? await pool.close()
            Issue.record("cannot reach PostgreSQL at KILN_TEST_DATABASE_URL: \(error)")
            throw error
        }
        let outcome: Result<T, any Error>
        do {
            switch setup {
            case .absent: break
            case .empty: try await pool.execute("CREATE SCHEMA \(PostgresConnection.quoteIdentifier(schema))")
            case .migrated: _ = try await Migrator(pool: pool, directory: migrations).migrate()
            }
            outcome = .success(try await body(pool))
        } catch {
            outcome = .failure(error)
        }
        try await pool.execute("DROP SCHEMA IF EXISTS \(PostgresConnection.quoteIdentifier(schema)) CASCADE")
        try await pool.close()
        return try outcome.get()
    }

    /// A fresh directory under the system's temporary directory, removed afterwards.
    static func withTemporaryDirectory<T>(_ body: (URL) async throws -> T) async throws -> T {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("kiln-test-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        return try await body(directory)
    }
}
