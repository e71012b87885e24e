import ArgumentParser
import Foundation
import Histogram
import KilnCommandLine
import KilnCore
import KilnKeys
import KilnPrivacy
import KilnQueue
import KilnStore
import RedisClient

/// `kiln-dev bench erasure`: what erasing one identity costs Redis beside a million other jobs, for identities
/// holding 0, 10 and 10,000 jobs, read through the owners' index (format 2) and by walking the namespace (format 1, as
/// 1.0.0 and a namespace upgraded from it do): Redis commands, `SCAN`s, time, and other users' submissions meanwhile.
struct ErasureBenchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "erasure", abstract: "Redis commands and time to erase an identity beside a million jobs, by index and by walk.")

    @OptionGroup var connections: ConnectionOptions
    @Option(help: "Other identities' jobs in Redis beside the erased one's.") var beside = 1_000_000
    @Option(help: "The erased identities' job counts, in order.") var identityJobs: [Int] = [0, 10, 10_000]

    func run() async throws {
        var options = connections
        options.namespace = "bench-\(UUID().uuidString.prefix(8).lowercased())"
        guard let tenant = TenantID(validating: "bench-erasure") else { throw ValidationError("bench-erasure is not a tenant id") }
        try await Runtime.with(options) { runtime in
            try await runtime.namespace.prepare()
            let started = ContinuousClock.now
            try await Self.writeOthers(beside, of: tenant, runtime)
            print(String(format: "%d other jobs written in %.1f s", beside, (ContinuousClock.now - started).seconds))
            let eraser = IdentityEraser(namespace: runtime.namespace, records: IdentityRecords(pool: runtime.database, objects: runtime.objects))
            // The first erasure opens PostgreSQL's connections.
            _ = try await eraser.erase(identity: try Self.identity("nobody"), tenant: tenant)
            let quiet = try await Self.submissionLatency(tenant, runtime) { try await Task.sleep(for: .seconds(2)) }
            print(String(format: "others' submissions with no erasure: p50 %.2f ms, p99 %.2f ms", quiet.p50, quiet.p99))
            for format in [DataFormat.ownersIndexed, 1] {
                _ = try await runtime.redis.send(["SET", runtime.namespace.shards.control.dataFormat, String(format)])
                for count in identityJobs {
                    // Once alone, for Redis's count of commands; once more beside another identity's submissions.
                    let alone = try Self.identity("erase-me-\(format)-\(count)-alone")
                    try await Self.submit(count, of: alone, tenant, runtime)
                    let before = try await Self.commandCalls(runtime)
                    let clock = ContinuousClock.now
                    let erasure = try await eraser.erase(identity: alone, tenant: tenant)
                    let elapsed = ContinuousClock.now - clock
                    let after = try await Self.commandCalls(runtime)
                    let busy = try Self.identity("erase-me-\(format)-\(count)-busy")
                    try await Self.submit(count, of: busy, tenant, runtime)
                    let others = try await Self.submissionLatency(tenant, runtime) { _ = try await eraser.erase(identity: busy, tenant: tenant) }
                    print(
                        String(
                            format:
                                "format %d (%@), %d jobs beside %d: %d keys erased; %d Redis commands (%d SCAN), %.1f ms; others' submissions meanwhile p50 %.2f ms, p99 %.2f ms",
                            format, format == 1 ? "walk" : "index", count, beside, erasure.redisKeys, after.total - before.total,
                            after.scans - before.scans, elapsed.seconds * 1000, others.p50, others.p99))
                }
            }
            try await runtime.namespace.deleteAll()
        }
    }

    private static func identity(_ name: String) throws -> Identity {
        guard let identity = Identity(validating: name) else { throw ValidationError("\(name) is not an identity") }
        return identity
    }

    /// Other identities' finished jobs, as Redis holds them for an hour after their record: a thousand identities, each
    /// with its index. Written by a script a thousand at a time: Kiln's own scripts would admit and queue them first.
    private static func writeOthers(_ count: Int, of tenant: TenantID, _ runtime: Runtime) async throws {
        let keys = runtime.namespace.shards.control
        let identities = try (0..<1_000).map { try identity("other-\($0)") }
        let expires = String(Int64(Date().timeIntervalSince1970 * 1000) + 3_600_000)
        let script = """
            for i = 3, #ARGV, 4 do
              local key, id, identity, owned = ARGV[i], ARGV[i + 1], ARGV[i + 2], ARGV[i + 3]
              redis.call('HSET', key, 'id', id, 'tenant', ARGV[1], 'identity', identity, 'kind', 'diag.echo', 'class', 'io',
                'state', 'succeeded', 'input', string.rep('x', 200), 'result', '{}')
              redis.call('PEXPIRE', key, 3600000)
              redis.call('ZADD', owned, ARGV[2], 'j:' .. id)
            end
            """
        for start in stride(from: 0, to: count, by: 1_000) {
            var arguments = ["EVAL", script, "1", keys.dataFormat, tenant.rawValue, expires]
            for index in start..<min(start + 1_000, count) {
                let id = JobID()
                let identity = identities[index % identities.count]
                arguments += [keys.job(id), id.rawValue, identity.rawValue, keys.owned(tenant, identity)]
            }
            _ = try await runtime.redis.send(arguments)
        }
    }

    /// The identity's jobs, enqueued as the API enqueues them, each under an idempotency key, delayed an hour.
    private static func submit(_ count: Int, of identity: Identity, _ tenant: TenantID, _ runtime: Runtime) async throws {
        for index in 0..<count {
            _ = try await runtime.namespace.queue.enqueue(
                Submission(
                    tenant: tenant, identity: identity, kind: "diag.echo", jobClass: .io, priority: .normal, input: "{}", maxAttempts: 3,
                    timeout: .seconds(30), delay: .seconds(3_600), runningCap: 1_000_000, weight: 1, idempotencyKey: "key-\(index)",
                    bodyHash: "h"))
        }
    }

    /// Another identity's submissions, one after another, while `work` runs: their latency in milliseconds.
    private static func submissionLatency(
        _ tenant: TenantID, _ runtime: Runtime, during work: () async throws -> Void
    ) async throws -> (p50: Double, p99: Double) {
        let identity = try identity("someone-else")
        let submitter = Task {
            var histogram = Histogram<UInt64>(highestTrackableValue: 60_000_000)
            while !Task.isCancelled {
                let started = ContinuousClock.now
                _ = try await runtime.namespace.queue.enqueue(
                    Submission(
                        tenant: tenant, identity: identity, kind: "diag.echo", jobClass: .io, priority: .normal, input: "{}", maxAttempts: 3,
                        timeout: .seconds(30), delay: .seconds(3_600), runningCap: 1_000_000, weight: 1))
                histogram.record(UInt64((ContinuousClock.now - started).seconds * 1_000_000))
            }
            return histogram
        }
        try await work()
        submitter.cancel()
        let histogram = try await submitter.value
        return (Double(histogram.valueAtPercentile(50)) / 1000, Double(histogram.valueAtPercentile(99)) / 1000)
    }

    /// The commands every Redis server has run (scripts' included), and how many were `SCAN`s.
    private static func commandCalls(_ runtime: Runtime) async throws -> (total: Int, scans: Int) {
        var total = 0
        var scans = 0
        for (_, reply) in try await runtime.redis.sendToEveryMaster(["INFO", "commandstats"]) {
            for line in (reply.string ?? "").split(whereSeparator: \.isNewline) where line.hasPrefix("cmdstat_") {
                let calls = line.split(separator: ",").first?.split(separator: "=").last.flatMap { Int($0) } ?? 0
                total += calls
                if line.hasPrefix("cmdstat_scan:") { scans += calls }
            }
        }
        return (total, scans)
    }
}
