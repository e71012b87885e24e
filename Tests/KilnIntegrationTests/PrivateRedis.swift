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

    /// Starts the server with `arguments` besides the deployed ones, and waits until it answers `PING`, or with
    /// `untilLoaded` false only until it accepts connections (it may still be loading its data).
    func start(_ arguments: [String] = [], untilLoaded: Bool = true) async throws {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        process = try SpawnedProcess(
            [
                "redis-server", "--port", String(port), "--bind", "127.0.0.1", "--dir", directory.path, "--appendonly", "yes",
                "--appendfsync", "everysec", "--maxmemory-policy", "noeviction", "--save", "",
            ] + arguments, stdout: .null, stderr: .null)
        for _ in 0..<100 {
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
            if answered { return }
            try await Task.sleep(for: .milliseconds(50))
        }
        throw TestFailure("redis-server did not start on \(port)")
    }

    /// Writes `count` keys of 100 bytes and rewrites the AOF, so that a restart has that much to load.
    func fill(keys count: Int) async throws {
        let redis = RedisPool(configuration: configuration)
        let script = "for i = 1, tonumber(ARGV[1]) do redis.call('SET', 'fill:' .. i, string.rep('x', 100)) end"
        try await redis.send(["EVAL", script, "0", String(count)])
        try await redis.send(["BGREWRITEAOF"])
        var rewritten = false
        for _ in 0..<500 where !rewritten {
            try await Task.sleep(for: .milliseconds(20))
            let info = try await redis.send(["INFO", "persistence"]).string ?? ""
            rewritten = info.contains("aof_rewrite_in_progress:0") && info.contains("aof_rewrite_scheduled:0")
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
