import KilnCommandLine
import KilnCore
import KilnQueue
import KilnStore
import RedisClient

/// Redis CPU per job of each stage of the queue, from `INFO commandstats` around each stage run alone: where the
/// dispatcher's time goes. It reads the server's cumulative counters, so other clients' scripts during the run count too.
struct ScriptCosts {
    let enqueue: Double
    let claim: Double
    let settle: Double
    let recorded: Double

    static func measure(runtime: Runtime, tenant: Tenant, jobs: Int) async throws -> ScriptCosts {
        let queue = runtime.namespace.queue
        func scriptMicroseconds() async throws -> Double {
            let info = try await runtime.redis.send(["INFO", "commandstats"]).string ?? ""
            guard let line = info.split(whereSeparator: \.isNewline).first(where: { $0.hasPrefix("cmdstat_evalsha:") }),
                let usec = line.split(separator: ",").first(where: { $0.hasPrefix("usec=") })
            else { return 0 }
            return Double(usec.dropFirst("usec=".count)) ?? 0
        }
        func perJob(_ stage: () async throws -> Void) async throws -> Double {
            let before = try await scriptMicroseconds()
            try await stage()
            return (try await scriptMicroseconds() - before) / Double(jobs)
        }
        let enqueue = try await perJob { try await BenchCommand.enqueueNoOps(jobs, runtime: runtime, tenant: tenant) }
        var claimed: [ClaimedJob] = []
        let claim = try await perJob {
            while true {
                let batch = try await queue.settleAndClaim([], jobClass: .io, count: 500, worker: "script-costs").claimed.jobs
                if batch.isEmpty { break }
                claimed += batch
            }
        }
        let settle = try await perJob {
            for start in stride(from: 0, to: claimed.count, by: 500) {
                _ = try await queue.settle(
                    claimed[start..<min(start + 500, claimed.count)].map {
                        Settlement(job: $0.id, attempt: $0.attempt, outcome: .succeeded(result: "{}"))
                    })
            }
        }
        let finished = try await queue.snapshots(claimed.map(\.id)).compactMap { $0?.finished }
        let recorded = try await perJob {
            for start in stride(from: 0, to: finished.count, by: 500) {
                try await queue.markRecorded(Array(finished[start..<min(start + 500, finished.count)]))
            }
        }
        return ScriptCosts(enqueue: enqueue, claim: claim, settle: settle, recorded: recorded)
    }
}
