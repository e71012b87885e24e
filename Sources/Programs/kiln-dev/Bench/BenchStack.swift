import ArgumentParser
import Foundation
import KilnCommandLine
import KilnCore
import KilnStore

/// What every benchmark starts the same way: the `bench` tenant, API and worker child processes on the benchmark's
/// namespace, and stopping them whatever happens.
struct BenchStack {
    let connections: ConnectionOptions
    /// Port of the API the benchmark starts.
    let port: Int
    /// Where the child processes log.
    let logDirectory: String

    /// The benchmarks' tenant: diagnostics on, no running cap to speak of.
    func tenant(_ runtime: Runtime) async throws -> Tenant {
        let tenants = TenantStore(pool: runtime.database)
        guard let id = TenantID(validating: "bench") else { throw ValidationError("bench is not a tenant id") }
        if let tenant = try await tenants.find(id: id) { return tenant }
        return try await tenants.create(id: id, name: "Benchmarks", weight: 1, runningCap: 1_000_000, diagnostics: true)
    }

    func childArguments(_ command: String, namespace: String) -> [String] {
        [
            command, "--redis-url", connections.redisURL, "--database-url", connections.databaseURL, "--namespace", namespace,
            "--object-root", connections.objectRoot, "--schema", connections.schema, "--redis-shards", String(connections.redisShards),
            "--tenant-shards", connections.tenantShards,
        ] + (command == "worker" ? ["--metrics-port", "0"] : [])
    }

    /// Starts an API node on ``port`` (with `options` besides) and returns once it answers `/readyz`; `program` is the
    /// `kiln` to run, the one built beside this tool when nil.
    func startAPI(namespace: String, options: [String] = [], program: String? = nil) async throws -> ChildProcess {
        let arguments = childArguments("api", namespace: namespace) + ["--port", String(port)] + options
        let log = "\(logDirectory)/bench-api.log"
        let api = try program.map { try ChildProcess(arguments, executable: $0, logTo: log) } ?? ChildProcess(arguments, logTo: log)
        if try await APIReadiness.wait(for: "http://127.0.0.1:\(port)", within: .seconds(10), every: .milliseconds(100)) { return api }
        await api.stop()
        throw ValidationError("the API did not become ready; see \(logDirectory)/bench-api.log")
    }

    /// Starts `count` worker processes for a no-op burn-down: io jobs only, 1,024 at once, claimed 512 at a time; each
    /// logs to `<logDirectory>/<logName>-<index>.log`.
    func burnDownWorkers(_ count: Int, namespace: String, logName: String) throws -> [ChildProcess] {
        try (0..<count).map { index in
            try ChildProcess(
                childArguments("worker", namespace: namespace) + ["--io", "1024", "--cpu", "0", "--claim-batch", "512"],
                logTo: "\(logDirectory)/\(logName)-\(index).log")
        }
    }

    /// Runs `body`, then stops the processes, whether it succeeded or not.
    func stopping<T>(_ children: [ChildProcess], _ body: () async throws -> T) async throws -> T {
        do {
            let value = try await body()
            for child in children { await child.stop() }
            return value
        } catch {
            for child in children { await child.stop() }
            throw error
        }
    }
}
