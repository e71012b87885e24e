import ArgumentParser
import Foundation
import KilnCommandLine
import KilnStore

struct MigrateCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "migrate", abstract: "Apply the numbered SQL files of migrations/ that are not applied yet.")

    @OptionGroup var connections: ConnectionOptions

    @Option(help: "Directory of NNNN_name.sql files (env KILN_MIGRATIONS_DIR).")
    var directory: String = ProcessInfo.processInfo.environment["KILN_MIGRATIONS_DIR"] ?? "migrations"

    func run() async throws {
        try await Runtime.with(connections) { runtime in
            let applied = try await Migrator(pool: runtime.database, directory: URL(fileURLWithPath: directory, isDirectory: true)).migrate()
            print(applied.isEmpty ? "migrations: up to date" : "migrations: applied \(applied.map(String.init).joined(separator: ", "))")
        }
    }
}
