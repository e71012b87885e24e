import Foundation
import KilnCommandLine
import KilnCore
import KilnQueue
import KilnStore
import RedisClient

/// Redis CPU per job of each stage of the queue, from `INFO commandstats` and `INFO cpu` around each stage run alone:
/// where the dispatcher's time goes. It reads the server's cumulative counters, so other clients' commands during the
/// run count too.
struct ScriptCosts {
    /// One stage: its scripts' time, the time of each command they ran, and the server's whole CPU (scripts, reading
    /// requests, writing replies, the AOF) per job.
    struct Stage {
        let name: String
        /// Microseconds per job in scripts (`cmdstat_evalsha`), commands inside them included.
        let scripts: Double
        /// Microseconds per job of the server's main process (`INFO cpu`), everything included.
        let cpu: Double
        /// Script calls per job.
        let scriptCalls: Double
        /// The commands the scripts ran, most costly first: name, calls per job, microseconds per job. Commands sent
        /// outside scripts during the stage count too (a burn-down's polling, a worker's `BLPOP`): a few per thousand jobs.
        let commands: [(name: String, calls: Double, microseconds: Double)]
        /// AOF rewrites that finished during the stage, and their children's CPU in microseconds per job: not in `cpu`,
        /// and not spent on the stage's jobs alone (a child writes out everything Redis holds).
        let rewrites: Int
        let rewriteCPU: Double

        /// What the scripts spent outside the commands they ran: Lua itself, and each call's fixed cost.
        var lua: Double { scripts - commands.reduce(0) { $0 + $1.microseconds } }

        /// `<stage>: <µs> in <calls> scripts (lua <µs>; <command> <calls>× <µs>, …); <µs> of server cpu; <n> aof
        /// rewrites`, every figure a job's.
        var summary: String {
            // Those under 0.05 µs a job round to nothing.
            let parts = commands.filter { $0.microseconds >= 0.05 }.map { command in
                String(format: "%@ %.2f× %.1f", command.name, command.calls, command.microseconds)
            }
            let rewriting = rewrites == 0 ? "0 aof rewrites" : String(format: "%d aof rewrites, their children %.1f µs", rewrites, rewriteCPU)
            return String(
                format: "%@: %.1f µs in %.3f scripts (lua %.1f; %@); %.1f µs of server cpu; %@", name, scripts, scriptCalls, lua,
                parts.joined(separator: ", "), cpu, rewriting)
        }
    }

    let stages: [Stage]

    /// `enqueue <µs>, claim <µs>, …`: each stage's scripts, a job's.
    var line: String { stages.map { String(format: "%@ %.1f µs", $0.name, $0.scripts) }.joined(separator: ", ") }

    /// `cmdstat_<name>` → (calls, usec), as the servers count them since they started: every master's, added up (the
    /// one server of a plain Redis).
    private static func commandStats(_ runtime: Runtime) async throws -> [String: (calls: Double, usec: Double)] {
        let info = try await runtime.redis.sendToEveryMaster(["INFO", "commandstats"]).values.compactMap(\.string).joined(separator: "\n")
        var stats: [String: (calls: Double, usec: Double)] = [:]
        for line in info.split(whereSeparator: \.isNewline) where line.hasPrefix("cmdstat_") {
            let parts = line.dropFirst("cmdstat_".count).split(separator: ":", maxSplits: 1)
            guard parts.count == 2 else { continue }
            var calls = 0.0
            var usec = 0.0
            for field in parts[1].split(separator: ",") {
                let pair = field.split(separator: "=")
                guard pair.count == 2 else { continue }
                if pair[0] == "calls" { calls = Double(pair[1]) ?? 0 }
                if pair[0] == "usec" { usec = Double(pair[1]) ?? 0 }
            }
            let known = stats[String(parts[0])] ?? (0, 0)
            stats[String(parts[0])] = (known.calls + calls, known.usec + usec)
        }
        return stats
    }

    /// Runs `body`, which handles `jobs` jobs, and returns what Redis spent on it per job.
    static func stage(_ name: String, runtime: Runtime, jobs: Int, _ body: () async throws -> Void) async throws -> Stage {
        let before = try await commandStats(runtime)
        let cpuBefore = try await runtime.redis.serverCPUSeconds()
        let persistenceBefore = try await runtime.redis.persistenceWork()
        try await body()
        let cpuAfter = try await runtime.redis.serverCPUSeconds()
        let persistenceAfter = try await runtime.redis.persistenceWork()
        let after = try await commandStats(runtime)
        let perJob = 1 / Double(jobs)
        func delta(_ command: String) -> (calls: Double, usec: Double) {
            let now = after[command] ?? (0, 0)
            let then = before[command] ?? (0, 0)
            return ((now.calls - then.calls) * perJob, (now.usec - then.usec) * perJob)
        }
        // The stage's own reads of the counters (`INFO`) and the scripts themselves are not commands the scripts ran.
        let inner = after.keys.filter { !["evalsha", "eval", "info", "script|load"].contains($0) }
            .map { (name: $0, calls: delta($0).calls, microseconds: delta($0).usec) }
            .filter { $0.calls > 0 }
            .sorted { $0.microseconds > $1.microseconds }
        return Stage(
            name: name, scripts: delta("evalsha").usec, cpu: (cpuAfter - cpuBefore) * 1_000_000 * perJob,
            scriptCalls: delta("evalsha").calls, commands: inner, rewrites: Int(persistenceAfter.rewrites - persistenceBefore.rewrites),
            rewriteCPU: (persistenceAfter.childCPUSeconds - persistenceBefore.childCPUSeconds) * 1_000_000 * perJob)
    }

    static func measure(runtime: Runtime, tenant: Tenant, jobs: Int) async throws -> ScriptCosts {
        let queue = runtime.namespace.queue
        func stage(_ name: String, jobs count: Int? = nil, _ body: () async throws -> Void) async throws -> Stage {
            try await Self.stage(name, runtime: runtime, jobs: count ?? jobs, body)
        }
        let enqueue = try await stage("enqueue") { try await BenchCommand.enqueueNoOps(jobs, runtime: runtime, tenants: [tenant]) }
        var claimed: [ClaimedJob] = []
        let claim = try await stage("claim") {
            while true {
                let batch = try await queue.settleAndClaim([], jobClass: .io, count: 500, worker: "script-costs").claimed.jobs
                if batch.isEmpty { break }
                claimed += batch
            }
        }
        let settle = try await stage("settle") {
            for start in stride(from: 0, to: claimed.count, by: 500) {
                _ = try await queue.settle(
                    claimed[start..<min(start + 500, claimed.count)].map {
                        Settlement(job: $0.id, attempt: $0.attempt, outcome: .succeeded(result: "{}"))
                    })
            }
        }
        let finished = try await queue.snapshots(claimed.map(\.id)).compactMap { $0?.finished }
        let recorded = try await stage("recorded") {
            for start in stride(from: 0, to: finished.count, by: 500) {
                try await queue.markRecorded(Array(finished[start..<min(start + 500, finished.count)]))
            }
        }
        // The worker's loop when jobs come one at a time: each call settles the last job and claims the next.
        let singles = max(jobs / 10, 1)
        try await BenchCommand.enqueueNoOps(singles, runtime: runtime, tenants: [tenant])
        let single = try await stage("one job per call", jobs: singles) {
            var previous: (job: ClaimedJob, settlement: Settlement)?
            while true {
                let (settled, batch) = try await queue.settleAndClaim(
                    previous.map { [$0.settlement] } ?? [], jobClass: .io, count: 1, worker: "script-costs")
                if let previous, let attempt = settled.first ?? nil, let done = previous.job.finished(attempt, result: "{}") {
                    try await queue.markRecorded([done])
                }
                guard let job = batch.jobs.first else { break }
                previous = (job, Settlement(job: job.id, attempt: job.attempt, outcome: .succeeded(result: "{}")))
            }
        }
        return ScriptCosts(stages: [enqueue, claim, settle, recorded, single])
    }
}
