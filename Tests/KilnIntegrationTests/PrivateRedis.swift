import Foundation
import RedisClient
import Spawning

/// A redis-server of the test's own (AOF on, as deployed), for tests that restart Redis or flush its scripts:
/// the shared server's other users must not see either.
final class PrivateRedis {
    let port = Int.random(in: 20_000..<30_000)
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("kiln-redis-\(UUID().uuidString.prefix(8))")

    private var process: SpawnedProcess?

    /// How to reach it.
    var configuration: RedisConfiguration {
        var configuration = RedisConfiguration()
        configuration.port = port
        return configuration
    }

    func start() async throws {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        process = try SpawnedProcess(
            [
                "redis-server", "--port", String(port), "--bind", "127.0.0.1", "--dir", directory.path, "--appendonly", "yes",
                "--appendfsync", "everysec", "--maxmemory-policy", "noeviction", "--save", "",
            ], stdout: .null, stderr: .null)
        for _ in 0..<100 {
            // A pool of its own each time: a pool that failed to connect waits before it tries again.
            let redis = RedisPool(configuration: configuration)
            let answered = (try? await redis.send(["PING"])) != nil
            try await redis.close()
            if answered { return }
            try await Task.sleep(for: .milliseconds(50))
        }
        throw TestFailure("redis-server did not start on \(port)")
    }

    /// `SHUTDOWN`: Redis flushes the AOF and exits, as on a deploy or a restart by systemd.
    func stop() async throws {
        guard let process else { return }
        let redis = RedisPool(configuration: configuration)
        _ = try? await redis.send(["SHUTDOWN"])
        try await redis.close()
        for _ in 0..<250 where process.isRunning { try await Task.sleep(for: .milliseconds(20)) }
        self.process = nil
        if process.isRunning {
            process.signal(SIGKILL)
            throw TestFailure("redis-server on \(port) did not shut down")
        }
    }

    deinit {
        try? FileManager.default.removeItem(at: directory)
    }
}
