import Foundation
import Glibc
import PostgresClient
import Spawning

/// A PostgreSQL cluster of the test's own, for tests that stop and start the server: the shared server's other
/// users must not see that. As root, its commands run as the `postgres` system user, which PostgreSQL insists on.
final class PrivatePostgres {
    let port = Int.random(in: 30_000..<40_000)
    let directory = URL(fileURLWithPath: "/tmp").appendingPathComponent("kiln-postgres-\(UUID().uuidString.prefix(8))")

    /// How to reach it: the `postgres` superuser, by address, with trust authentication.
    var url: String { "postgresql://postgres@127.0.0.1:\(port)/postgres" }

    private var data: String { directory.appendingPathComponent("data").path }

    /// A pool on it that gives up connecting after 2 s and reconnects within 200 ms once the server is back, so tests of
    /// an outage see its start and its end quickly.
    func pool() throws -> PostgresPool {
        var configuration = PostgresConfiguration(url: url)
        configuration.connectTimeout = .seconds(2)
        configuration.maxReconnectDelay = .milliseconds(200)
        return try PostgresPool(configuration: configuration)
    }

    /// Creates the cluster on first use, then starts the server and waits until it accepts connections.
    func start() async throws {
        if !FileManager.default.fileExists(atPath: data) {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            if getuid() == 0 { try await Self.run(["chown", "postgres", directory.path], asServer: false) }
            try await Self.run([Self.bin("initdb"), "-D", data, "-U", "postgres", "--auth=trust", "-E", "UTF8", "--no-locale"])
        }
        try await Self.run([
            Self.bin("pg_ctl"), "-D", data, "-l", directory.appendingPathComponent("log").path, "-w",
            "-o", "-p \(port) -c listen_addresses=127.0.0.1 -c unix_socket_directories=''", "start",
        ])
    }

    /// Stops the server at once, as a crash or a restart would: sessions are closed, statements cut short.
    func stop() async throws {
        try await Self.run([Self.bin("pg_ctl"), "-D", data, "-m", "fast", "-w", "stop"])
    }

    /// Stops the server if it runs and removes the cluster.
    func remove() async {
        try? await Self.run([Self.bin("pg_ctl"), "-D", data, "-m", "immediate", "-w", "stop"])
        try? FileManager.default.removeItem(at: directory)
    }

    /// The newest PostgreSQL server's program `name`, as `deploy/local/env.sh` picks it.
    private static func bin(_ name: String) -> String {
        let versions = (try? FileManager.default.contentsOfDirectory(atPath: "/usr/lib/postgresql")) ?? []
        let newest = versions.compactMap(Int.init).max().map(String.init) ?? "15"
        return "/usr/lib/postgresql/\(newest)/bin/\(name)"
    }

    private static func run(_ command: [String], asServer: Bool = true) async throws {
        let prefix = asServer && getuid() == 0 ? ["runuser", "-u", "postgres", "--"] : []
        let process = try SpawnedProcess(prefix + command, stdout: .null, stderr: .null)
        let termination = await process.exit()
        guard termination.succeeded else {
            throw TestFailure("\(command.first ?? "") exited with \(termination.shellStatus)")
        }
    }
}
