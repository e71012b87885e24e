import ArgumentParser
import Foundation
import KilnCommandLine
import KilnCore
import KilnQueue
import KilnStore

/// `kiln-dev bench shards`: no-op jobs burnt down by worker processes on a namespace of 1 shard, then of N, with a
/// tenant on each shard: jobs per second, and Redis CPU per job on each Redis server (each master of a cluster). On a
/// cluster of three masters, one shard keeps one master busy and three spread the work over all three: the per-shard
/// cost and the absence of a single-core ceiling are what it shows (docs/scaling.md).
struct ShardBenchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "shards", abstract: "No-op jobs per second and Redis CPU per job, on 1 and N shards.")

    @OptionGroup var connections: ConnectionOptions
    @Option(help: "No-op jobs per burn-down.") var jobsPerRun = 60_000
    @Option(help: "The shard counts to measure, in order.") var shardCounts: [Int] = [1, 3]
    @Option(help: "Worker processes.") var workers = 2
    @Option(help: "Where the child processes log.") var logDirectory = ".kiln/logs"

    func run() async throws {
        try FileManager.default.createDirectory(atPath: logDirectory, withIntermediateDirectories: true)
        for count in shardCounts {
            var options = connections
            options.namespace = "bench-\(UUID().uuidString.prefix(8).lowercased())"
            options.redisShards = count
            try await Runtime.with(options) { runtime in
                try await runtime.namespace.prepare()
                let tenants = try await Self.tenantPerShard(runtime)
                try await BenchCommand.enqueueNoOps(jobsPerRun, runtime: runtime, tenants: tenants)
                let before = try await runtime.redis.serverCPUSecondsByServer()
                let stack = BenchStack(connections: options, port: 0, logDirectory: logDirectory)
                let started = ContinuousClock.now
                let children = try stack.burnDownWorkers(workers, namespace: options.namespace, logName: "bench-shards-worker")
                try await stack.stopping(children) {
                    try await BenchCommand.awaitDrained(runtime, jobs: jobsPerRun)
                    let elapsed = (ContinuousClock.now - started).seconds
                    let after = try await runtime.redis.serverCPUSecondsByServer()
                    let perJob = 1_000_000 / Double(jobsPerRun)
                    let servers = after.keys.sorted().map { server in
                        String(format: "%@ %.1f µs", server, (after[server, default: 0] - before[server, default: 0]) * perJob)
                    }
                    let total = after.keys.reduce(0) { $0 + after[$1, default: 0] - before[$1, default: 0] } * perJob
                    print(
                        String(
                            format: "%d shard%@, %d worker processes: %.0f jobs/s (%d jobs); redis cpu per job %.1f µs: %@; workers %.1f µs",
                            count, count == 1 ? "" : "s", workers, Double(jobsPerRun) / elapsed, jobsPerRun, total, servers.joined(separator: ", "),
                            children.map(\.cpuSeconds).reduce(0, +) * perJob))
                }
                try await runtime.namespace.deleteAll()
            }
        }
    }

    /// A benchmark tenant on each shard, found by where the placement puts the tenants' names.
    static func tenantPerShard(_ runtime: Runtime) async throws -> [Tenant] {
        let shards = runtime.namespace.shards
        var names: [Int: TenantID] = [:]
        for index in 0..<10_000 where names.count < shards.count {
            guard let id = TenantID(validating: "bench-\(index)") else { continue }
            let shard = shards.shard(tenant: id, owner: "bench-0")
            if names[shard] == nil { names[shard] = id }
        }
        let store = TenantStore(pool: runtime.database)
        var tenants: [Tenant] = []
        for id in names.values.sorted(by: { $0.rawValue < $1.rawValue }) {
            if let tenant = try await store.find(id: id) {
                tenants.append(tenant)
            } else {
                tenants.append(try await store.create(id: id, name: "Benchmarks", weight: 1, runningCap: 1_000_000, diagnostics: true))
            }
        }
        return tenants
    }
}
