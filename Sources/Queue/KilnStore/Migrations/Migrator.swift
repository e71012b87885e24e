public import Foundation
import KilnCore
public import Logging
public import PostgresClient

/// `kiln migrate`: applies the numbered SQL files of a directory (`0001_core.sql`, …), forward-only, into the
/// pool's schema (its `searchPath`, `public` when unset), creating the schema when missing.
///
/// Every file runs in its own transaction with the row recording it in `schema_migrations`, under a
/// transaction-scoped advisory lock per schema, so concurrent migrators apply each file once. Files must not
/// contain transaction control (`BEGIN`, `COMMIT`) or statements that cannot run in a transaction.
public struct Migrator: Sendable {
    public let directory: URL
    private let pool: PostgresPool
    private let logger: Logger

    public init(pool: PostgresPool, directory: URL, logger: Logger? = nil) {
        self.pool = pool
        self.directory = directory
        self.logger = logger ?? .disabled
    }

    /// Applies the files not yet applied, in version order, and returns their versions (none when up to date).
    ///
    /// Refuses, before applying anything, when a file is not named `NNNN_name.sql` (hidden files are ignored),
    /// two files share a version, or an applied migration's file has changed or disappeared.
    public func migrate() async throws -> [Int] {
        let directory = self.directory
        let schema = pool.configuration.searchPath ?? "public"
        let logger = self.logger
        return try await pool.withConnection { connection in
            let files = try Self.files(in: directory)
            let applied = try await Self.prepare(schema: schema, on: connection)
            try Self.verify(files, against: applied)
            var versions: [Int] = []
            for file in files where applied[file.version] == nil {
                guard try await Self.apply(file, schema: schema, on: connection) else { continue }
                versions.append(file.version)
                logger.info("migration applied", metadata: ["migration.file": "\(file.name)", "db.schema": "\(schema)"])
            }
            return versions
        }
    }

    /// One migration file.
    private struct File: Sendable {
        let version: Int
        let name: String
        let sql: String
        let checksum: String
    }

    /// What `schema_migrations` holds for one version.
    private struct Applied {
        let name: String
        let checksum: String
    }

    private static func files(in directory: URL) throws -> [File] {
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: directory.path)
        } catch {
            throw MigrationError(.unreadable, file: directory.path, "cannot list the migrations directory")
        }
        var files: [File] = []
        for name in names.sorted() where !name.hasPrefix(".") {
            guard let version = version(ofFileNamed: name) else {
                throw MigrationError(
                    .invalidFileName, file: name, "migration files are named NNNN_name.sql (digits, then lowercase letters, digits and _)")
            }
            guard let bytes = FileManager.default.contents(atPath: directory.appendingPathComponent(name).path) else {
                throw MigrationError(.unreadable, file: name, "cannot read the file")
            }
            guard let sql = String(bytes: bytes, encoding: .utf8) else {
                throw MigrationError(.unreadable, file: name, "the file is not UTF-8")
            }
            if let other = files.first(where: { $0.version == version }) {
                throw MigrationError(.duplicateVersion, file: name, "version \(version) is also \(other.name)")
            }
            files.append(File(version: version, name: name, sql: sql, checksum: Digest.sha256Hex(bytes)))
        }
        return files.sorted { $0.version < $1.version }
    }

    /// The version of `NNNN_name.sql`: four or more digits, at least 1; nil for any other name.
    private static func version(ofFileNamed name: String) -> Int? {
        guard name.hasSuffix(".sql"), let underscore = name.firstIndex(of: "_") else { return nil }
        let digits = name[..<underscore]
        let label = name[name.index(after: underscore)..<name.index(name.endIndex, offsetBy: -4)]
        guard digits.count >= 4, digits.allSatisfy(\.isASCII), digits.allSatisfy(\.isNumber), !label.isEmpty,
            label.allSatisfy({ ("a"..."z").contains($0) || ("0"..."9").contains($0) || $0 == "_" }),
            let version = Int(digits), version >= 1
        else { return nil }
        return version
    }

    /// Creates the schema and `schema_migrations` when missing, and reads what was applied.
    private static func prepare(schema: String, on connection: PostgresConnection) async throws -> [Int: Applied] {
        try await connection.withTransaction {
            try await lock(schema: schema, on: connection)
            // An identifier cannot be a parameter; it is quoted, and the schema comes from configuration.
            try await connection.execute("CREATE SCHEMA IF NOT EXISTS \(PostgresConnection.quoteIdentifier(schema))")
            try await useSchema(schema, on: connection)
            try await connection.execute(
                """
                CREATE TABLE IF NOT EXISTS schema_migrations (
                    version int PRIMARY KEY,
                    name text NOT NULL,
                    checksum text NOT NULL,
                    applied_at timestamptz NOT NULL DEFAULT now()
                )
                """
            )
            var applied: [Int: Applied] = [:]
            for row in try await connection.query("SELECT version, name, checksum FROM schema_migrations") {
                applied[try row.decode("version", as: Int.self)] = Applied(
                    name: try row.decode("name", as: String.self), checksum: try row.decode("checksum", as: String.self))
            }
            return applied
        }
    }

    private static func verify(_ files: [File], against applied: [Int: Applied]) throws {
        for (version, record) in applied.sorted(by: { $0.key < $1.key }) {
            guard let file = files.first(where: { $0.version == version }) else {
                throw MigrationError(.fileMissing, file: record.name, "version \(version) was applied but its file is gone")
            }
            guard file.name == record.name else {
                throw MigrationError(.checksumMismatch, file: file.name, "version \(version) was applied as \(record.name)")
            }
            guard file.checksum == record.checksum else {
                throw MigrationError(.checksumMismatch, file: file.name, "the file changed after it was applied; add a new migration instead")
            }
        }
    }

    /// Runs one file and records it, unless a concurrent migrator got there first; returns whether it ran here.
    private static func apply(_ file: File, schema: String, on connection: PostgresConnection) async throws -> Bool {
        try await connection.withTransaction {
            try await lock(schema: schema, on: connection)
            try await useSchema(schema, on: connection)
            guard try await connection.query("SELECT 1 FROM schema_migrations WHERE version = $1", [file.version]).isEmpty else {
                return false
            }
            do {
                try await connection.executeScript(file.sql)
            } catch let error as PostgresError {
                throw MigrationError(.failed, file: file.name, "\(error.description): \(error.message)")
            }
            try await connection.execute(
                "INSERT INTO schema_migrations (version, name, checksum) VALUES ($1, $2, $3)",
                [file.version, file.name, file.checksum]
            )
            return true
        }
    }

    /// Serialises migrators of one schema until the transaction ends.
    private static func lock(schema: String, on connection: PostgresConnection) async throws {
        try await connection.query("SELECT pg_advisory_xact_lock(hashtextextended($1, 0))", ["kiln.migrate:" + schema])
    }

    /// Points unqualified names at `schema` until the transaction ends, whatever the connection's search path.
    private static func useSchema(_ schema: String, on connection: PostgresConnection) async throws {
        try await connection.query("SELECT set_config('search_path', $1, true)", [PostgresConnection.quoteIdentifier(schema)])
    }
}
