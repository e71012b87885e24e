import ArgumentParser
import CurlClient
import Dispatch
import Foundation
import Histogram
import KilnCommandLine
import KilnCore
import KilnJSON
import KilnQueue
import KilnStore
import Locking
import RedisClient

/// `kiln-dev bench followers`: N clients following running jobs' event streams on one API node, for each N asked, while
/// the jobs stream deltas at a steady rate. The benchmark plays the workers (it claims the jobs and writes their deltas
/// through the queue, as a worker does) and the clients (``SSEFollowers``), and prints for each N: whether every
/// follower read every delta in order, first-delta and delta latency, the node's CPU per delivered event and memory
/// per follower, and Redis's CPU and connections.
struct FollowerBenchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "followers", abstract: "Many clients following streaming jobs on one API node; prints figures.")

    @OptionGroup var connections: ConnectionOptions
    @Option(help: "The numbers of followers to measure, one after another (comma-separated).") var followers = "1,100,1000,10000"
    @Option(help: "Followers of each job (a job's followers share its identity).") var followersPerJob = 10
    @Option(help: "Milliseconds between two deltas of a job.") var deltaIntervalMs = 500
    @Option(help: "Seconds the jobs stream deltas, for each N.") var streamSeconds = 10
    @Option(help: "The API node's program, to measure another release's (its `kiln`); the one built beside this tool by default.")
    var kiln: String?
    @Option(help: "Port of the API the benchmark starts.") var port = 8797
    @Option(help: "Where the child processes log.") var logDirectory = ".kiln/logs"

    func run() async throws {
        let counts = followers.split(separator: ",").compactMap { Int($0.trimmingCharacters(in: .whitespaces)) }
        guard !counts.isEmpty, counts.allSatisfy({ $0 > 0 }), followersPerJob > 0, deltaIntervalMs > 0, streamSeconds > 0 else {
            throw ValidationError(
                "--followers takes positive numbers; --followers-per-job, --delta-interval-ms and --stream-seconds must be positive")
        }
        try FileManager.default.createDirectory(atPath: logDirectory, withIntermediateDirectories: true)
        let namespace = "bench-\(UUID().uuidString.prefix(8).lowercased())"
        var options = connections
        options.namespace = namespace
        let stack = BenchStack(connections: options, port: port, logDirectory: logDirectory)
        try await Runtime.with(options) { runtime in
            try await runtime.namespace.prepare()
            let tenant = try await stack.tenant(runtime)
            let key = try await APIKeyStore(pool: runtime.database).create(tenant: tenant.id).1
            let benchConnections = try await connectedClients(runtime)
            let api = try await stack.startAPI(namespace: namespace, program: kiln)
            try await stack.stopping([api]) {
                print(
                    "followers: one API node (\(kiln ?? "this build")), \(followersPerJob) followers a job, a delta every \(deltaIntervalMs) ms a job, \(streamSeconds) s"
                )
                for count in counts {
                    print(try await measure(count, api: api, runtime: runtime, key: key, benchConnections: benchConnections))
                }
            }
            try await runtime.namespace.deleteAll()
        }
    }

    /// One N: submits and claims its jobs, opens its followers, streams, ends the jobs, and describes what they saw.
    /// - Parameter benchConnections: Redis's clients before the API node started: the rest are the node's.
    private func measure(_ count: Int, api: ChildProcess, runtime: Runtime, key: String, benchConnections: Int) async throws -> String {
        let jobCount = (count + followersPerJob - 1) / followersPerJob
        let identities = (0..<jobCount).map { "bench-follower-\($0)" }
        let jobs = try await claim(try await submit(identities, key: key), queue: runtime.namespace.queue)
        let memoryBefore = api.residentBytes
        let fleet = try SSEFollowers(
            port: port,
            requests: (0..<count).map { index in
                let job = index % jobCount
                return ("/v1/jobs/\(jobs[job].id)/events", ["Authorization: Bearer \(key)", "Kiln-Identity: \(identities[job])"])
            })
        let opening = ContinuousClock.now
        fleet.start()
        while fleet.progress.opened + fleet.progress.ended < count, ContinuousClock.now - opening < .seconds(300) {
            try await Task.sleep(for: .milliseconds(50))
        }
        let openedIn = (ContinuousClock.now - opening).seconds
        // The streams' backlogs read and the followers joined their shard's reader.
        try await Task.sleep(for: .seconds(1))
        let memoryPerFollower = Double(api.residentBytes - memoryBefore) / Double(count)
        let redisConnections = try await connectedClients(runtime) - benchConnections
        let cpuBefore = (api: api.cpuSeconds, redis: try await runtime.redis.serverCPUSeconds())
        let perJob = try await DeltaProducer(queue: runtime.namespace.queue, jobs: jobs)
            .stream(every: .milliseconds(deltaIntervalMs), for: .seconds(streamSeconds))
        let cpu = (api: api.cpuSeconds - cpuBefore.api, redis: try await runtime.redis.serverCPUSeconds() - cpuBefore.redis)
        try await DeltaProducer(queue: runtime.namespace.queue, jobs: jobs).finish()
        let ending = ContinuousClock.now
        while fleet.progress.ended < count, ContinuousClock.now - ending < .seconds(120) { try await Task.sleep(for: .milliseconds(50)) }
        let records = await fleet.finish()

        var delta = Histogram<UInt64>(highestTrackableValue: 600_000_000)
        var firstDelta = Histogram<UInt64>(highestTrackableValue: 600_000_000)
        var complete = 0
        var delivered = 0
        for record in records {
            if record.finished, record.deltas.map(\.number) == Array(1...perJob) { complete += 1 }
            if let first = record.deltas.first { _ = firstDelta.record(first.latency / 1000) }
            for arrival in record.deltas { _ = delta.record(arrival.latency / 1000) }
            delivered += record.deltas.count
        }
        let opened = records.filter { $0.status == 200 }.count
        return String(
            format:
                "  %6d followers of %5d jobs: opened %d in %.1f s; %d of %d read every delta in order (%d delivered)\n"
                + "         first delta p50 %.2f / p99 %.2f / max %.2f ms; delta p50 %.2f / p99 %.2f / max %.2f ms\n"
                + "         api %.1f µs cpu per delivered event, %.1f KiB per follower; redis %.1f%% of a core, %d connections of the node",
            count, jobCount, opened, openedIn, complete, count, delivered,
            Self.milliseconds(firstDelta, 50), Self.milliseconds(firstDelta, 99), Double(firstDelta.max) / 1000,
            Self.milliseconds(delta, 50), Self.milliseconds(delta, 99), Double(delta.max) / 1000,
            cpu.api * 1_000_000 / Double(max(delivered, 1)), memoryPerFollower / 1024, cpu.redis * 100 / Double(streamSeconds), redisConnections)
    }

    private static func milliseconds(_ histogram: Histogram<UInt64>, _ percentile: Double) -> Double {
        Double(histogram.valueAtPercentile(percentile)) / 1000
    }

    /// One job a follower's identity, long enough to outlast the run, submitted through the API.
    private func submit(_ identities: [String], key: String) async throws -> [JobID] {
        let client = try HTTPClient(configuration: HTTPClientConfiguration(maxConnectionsPerHost: 64))
        defer { client.shutdown() }
        let body = Array(#"{"kind":"diag.sleep","input":{"seconds":3600}}"#.utf8)
        var ids: [JobID] = []
        for identity in identities {
            let headers: HTTPHeaders = ["Authorization": "Bearer \(key)", "Kiln-Identity": identity, "Content-Type": "application/json"]
            let response = try await client.execute(
                HTTPRequest(method: "POST", url: "http://127.0.0.1:\(port)/v1/jobs", headers: headers, body: body))
            guard response.status == 202, let id = JSONValue.parse(String(decoding: response.body, as: UTF8.self))?["id"]?.stringValue,
                let job = JobID(validating: id)
            else { throw ValidationError("a submission answered \(response.status): \(String(decoding: response.body, as: UTF8.self))") }
            ids.append(job)
        }
        return ids
    }

    /// Claims the jobs as a worker would, in the order they were submitted.
    private func claim(_ ids: [JobID], queue: JobQueue) async throws -> [ClaimedJob] {
        var claimed: [JobID: ClaimedJob] = [:]
        let started = ContinuousClock.now
        while claimed.count < ids.count {
            guard ContinuousClock.now - started < .seconds(60) else { throw ValidationError("claimed \(claimed.count) of \(ids.count) jobs") }
            let batch = try await queue.settleAndClaim([], jobClass: .io, count: 500, worker: "bench-followers").claimed
            for job in batch.jobs { claimed[job.id] = job }
        }
        return try ids.map { id in
            guard let job = claimed[id] else { throw ValidationError("job \(id) was not claimed") }
            return job
        }
    }

    private func connectedClients(_ runtime: Runtime) async throws -> Int {
        let info = try await runtime.redis.send(["INFO", "clients"]).string ?? ""
        let line = info.split(whereSeparator: \.isNewline).first { $0.hasPrefix("connected_clients:") }
        return line.flatMap { Int($0.dropFirst("connected_clients:".count)) } ?? 0
    }
}
