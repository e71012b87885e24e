import Foundation
import Glibc
import PostgresClient
import Spawning

/// A PostgreSQL cluster of the test's own, for tests that stop and start the server: the shared server's other
/// users must not see that. As root, its commands run as the `postgres` system user, which PostgreSQL insists on.
/// It runs here, or on a host of a ``HostNetwork``.
final class PrivatePostgres {
    let port: Int
    let directory = URL(fileURLWithPath: "/tmp").appendingPathComponent("kiln-postgres-\(UUID().uuidString.prefix(8))")
    /// The host it runs on and the address it listens on there; nil for this host.
    private let host: (namespace: NetworkNamespace, address: String)?
    /// On another host, the test's way in: a relay from here into that host.
    private let relay: TCPRelay?

    init() throws {
        port = try TestPorts.reserve()
        host = nil
        relay = nil
    }

    /// A PostgreSQL on the host `namespace`, on its `address` and PostgreSQL's usual port (the host is the test's own).
    init(on namespace: NetworkNamespace, address: String) throws {
        port = 5432
        host = (namespace, address)
        relay = try TCPRelay(in: nil, address: "127.0.0.1", to: namespace, address, 5432)
    }

    /// How the test reaches it: the `postgres` superuser, by address, with trust authentication.
    var url: String { "postgresql://postgres@127.0.0.1:\(relay?.port ?? port)/postgres" }

    /// Its URL for the programs on the hosts of its network.
    var hostURL: String { "postgresql://postgres@\(host?.address ?? "127.0.0.1"):\(port)/postgres" }

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
            if host != nil {
                // initdb trusts connections from this host only; the other hosts of its network are as trusted.
                let rules = try FileHandle(forWritingTo: URL(fileURLWithPath: data).appendingPathComponent("pg_hba.conf"))
                try rules.seekToEnd()
                try rules.write(contentsOf: Data("host all all 0.0.0.0/0 trust\n".utf8))
                try rules.close()
            }
        }
        try await Self.run(
            [
                Self.bin("pg_ctl"), "-D", data, "-l", directory.appendingPathComponent("log").path, "-w",
                "-o", "-p \(port) -c listen_addresses=\(host?.address ?? "127.0.0.1") -c unix_socket_directories=''", "start",
            ], on: host?.namespace)
    }

    /// Stops the server at once, as a crash or a restart would: sessions are closed, statements cut short.
    func stop() async throws {
        try await Self.run([Self.bin("pg_ctl"), "-D", data, "-m", "fast", "-w", "stop"], on: host?.namespace)
    }

    /// Stops the server if it runs and removes the cluster.
    func remove() async {
        try? await Self.run([Self.bin("pg_ctl"), "-D", data, "-m", "immediate", "-w", "stop"], on: host?.namespace)
        relay?.stop()
        try? FileManager.default.removeItem(at: directory)
    }

    /// The newest PostgreSQL server's program `name`, as `deploy/local/env.sh` picks it.
    private static func bin(_ name: String) -> String {
        let versions = (try? FileManager.default.contentsOfDirectory(atPath: "/usr/lib/postgresql")) ?? []
        let newest = versions.compactMap(Int.init).max().map(String.init) ?? "15"
        return "/usr/lib/postgresql/\(newest)/bin/\(name)"
    }

    /// Runs `command` (on the host `namespace`, when given), as the `postgres` user when `asServer` and we are root.
    private static func run(_ command: [String], asServer: Bool = true, on namespace: NetworkNamespace? = nil) async throws {
        let prefix = asServer && getuid() == 0 ? ["runuser", "-u", "postgres", "--"] : []
        let process = try SpawnedProcess(namespace?.command(prefix + command) ?? prefix + command, stdout: .null, stderr: .null)
        let termination = await process.exit()
        guard termination.succeeded else {
            throw TestFailure("\(command.first ?? "") exited with \(termination.shellStatus)")
        }
    }
}
