import Foundation
import RedisClient
import Spawning

/// A redis-server of the test's own (AOF on, as deployed), for tests that restart Redis or flush its scripts:
/// the shared server's other users must not see either. It runs here, or on a host of a ``HostNetwork``.
final class PrivateRedis {
    let port: Int
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("kiln-redis-\(UUID().uuidString.prefix(8))")
    /// The host it runs on, nil for this one.
    private let host: HostNetwork.Host?
    /// On another host, the test's way in: a relay from here into that host.
    private let relay: TCPRelay?

    private var process: SpawnedProcess?

    init() throws {
        port = try TestPorts.reserve()
        host = nil
        relay = nil
    }

    /// A Redis on `host`, on its address and Redis's usual port (the host is the test's own).
    init(on host: HostNetwork.Host) throws {
        port = 6379
        self.host = host
        relay = try TCPRelay(in: nil, address: "127.0.0.1", to: host.namespace, host.address, 6379)
    }

    /// How the test reaches it.
    var configuration: RedisConfiguration {
        var configuration = RedisConfiguration()
        configuration.port = relay?.port ?? port
        return configuration
    }

    /// How the test's own commands reach it when the server may take seconds to answer (a long `EVAL` of its own, or
    /// a server loading its data, which answers only between chunks of it): on a machine running the whole suite, a
    /// few seconds go by before it answers, and the command's default timeout would fail the test, not the server.
    var patientConfiguration: RedisConfiguration {
        var configuration = configuration
        configuration.commandTimeout = .seconds(60)
        return configuration
    }

    /// Its URL for the programs on the hosts of its network.
    var hostURL: String { "redis://\(host?.address ?? "127.0.0.1"):\(port)" }

    /// Starts the server with `arguments` besides the deployed ones, and waits until it answers `PING`, or with
    /// `untilLoaded` false only until it accepts connections (it may still be loading its data).
    func start(_ arguments: [String] = [], untilLoaded: Bool = true) async throws {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let command =
            [
                "redis-server", "--port", String(port), "--bind", host?.address ?? "127.0.0.1", "--dir", directory.path, "--appendonly", "yes",
                "--appendfsync", "everysec", "--maxmemory-policy", "noeviction", "--save", "",
            ] + (host == nil ? [] : ["--protected-mode", "no"]) + arguments
        // On a host of its network, other hosts connect by address, which protected mode refuses without a password.
        process = try SpawnedProcess(host?.command(command) ?? command, stdout: .null, stderr: .null)
        let started = try await Eventually.holds {
            // A pool of its own each time: a pool that failed to connect waits before it tries again.
            let redis = RedisPool(configuration: configuration)
            let answered: Bool
            do {
                try await redis.send(["PING"])
                answered = true
            } catch {
                // `LOADING`: it listens.
                answered = !untilLoaded && (error as? RedisError)?.isServerError == true
            }
            try await redis.close()
            return answered
        }
        if !started { throw TestFailure("redis-server did not start on \(port)") }
    }

    /// Writes `count` keys of 100 bytes and rewrites the AOF, so that a restart has that much to load.
    func fill(keys count: Int) async throws {
        let redis = RedisPool(configuration: patientConfiguration)
        let script = "for i = 1, tonumber(ARGV[1]) do redis.call('SET', 'fill:' .. i, string.rep('x', 100)) end"
        try await redis.send(["EVAL", script, "0", String(count)])
        try await redis.send(["BGREWRITEAOF"])
        let rewritten = try await Eventually.holds(every: .milliseconds(20)) {
            let info = try await redis.send(["INFO", "persistence"]).string ?? ""
            return info.contains("aof_rewrite_in_progress:0") && info.contains("aof_rewrite_scheduled:0")
        }
        try await redis.close()
        if !rewritten { throw TestFailure("the AOF rewrite on \(port) did not finish") }
    }

    /// `SHUTDOWN`: Redis flushes the AOF and exits, as on a deploy or a restart by systemd.
    func stop() async throws {
        guard let process else { return }
        let redis = RedisPool(configuration: configuration)
        _ = try? await redis.send(["SHUTDOWN"])
        try await redis.close()
        let exited = try await process.exited(within: .seconds(20))
        self.process = nil
        if !exited {
            process.signal(SIGKILL)
            throw TestFailure("redis-server on \(port) did not shut down")
        }
    }

    deinit {
        relay?.stop()
        try? FileManager.default.removeItem(at: directory)
    }
}
