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

/// `kiln-dev bench providers`: many concurrent streaming `diag.generate` jobs through one worker process against the
/// provider simulator. Prints how many succeeded, the most calls the simulator served at once, the worker's CPU per
/// call, and how long each delta took from leaving the simulator to reaching an SSE client of the API.
struct ProviderBenchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "providers", abstract: "Concurrent streaming provider calls through one worker; prints figures.")

    @OptionGroup var connections: ConnectionOptions
    @Option(help: "Streaming diag.generate jobs submitted at once.") var streams = 1000
    @Option(help: "Jobs whose event stream is followed to time deltas.")
    var listeners = 50
    @Option(help: "Milliseconds between two deltas of the simulator.") var deltaIntervalMs = 100
    @Option(help: "Most words per answer.") var maxTokens = 100
    @Option(help: "Port of the API the benchmark starts.") var port = 8797
    @Option(help: "Where the child processes log.") var logDirectory = ".kiln/logs"

    func run() async throws {
        // The benchmark's own tasks (the simulator's answers) run on SwiftNIO's event loops, as the API node's do: on
        // Swift's cooperative pool each delta written would first wait for a pool thread to wake, and that wait would
        // count as Kiln's latency. The followers time each arrival on the HTTP client's own thread (`FollowedStream`).
        EventLoopExecutor.install()
        guard streams > 0, (0...streams).contains(listeners) else {
            throw ValidationError("--streams must be positive and --listeners between 0 and --streams")
        }
        try FileManager.default.createDirectory(atPath: logDirectory, withIntermediateDirectories: true)
        let namespace = "bench-\(UUID().uuidString.prefix(8).lowercased())"
        var options = connections
        options.namespace = namespace
        let stack = BenchStack(connections: options, port: port, logDirectory: logDirectory)
        let writes = StreamWriteLog()
        try await BenchSimulator.serving(deltaInterval: .milliseconds(deltaIntervalMs), log: writes) { simulator in
            let providersFile = try Self.writeProviders(simulatorPort: simulator.port, directory: logDirectory)

            try await Runtime.with(options) { runtime in
                try await runtime.namespace.prepare()
                let tenant = try await stack.tenant(runtime)
                let key = try await APIKeyStore(pool: runtime.database).create(tenant: tenant.id).1
                let api = try await stack.startAPI(namespace: namespace)
                let worker = try ChildProcess(
                    stack.childArguments("worker", namespace: namespace) + [
                        "--io", String(streams + 16), "--cpu", "0", "--providers", providersFile,
                    ],
                    logTo: "\(logDirectory)/bench-worker-providers.log")
                try await stack.stopping([api, worker]) {
                    let cpuBefore = try await PartyCPU.read(worker: worker, api: api, runtime: runtime)
                    let started = ContinuousClock.now
                    let run = try await self.submitAndFollow(key: key)
                    let outcomes = try await Self.awaitFinished(run.jobs, runtime: runtime, tenant: tenant.id)
                    let elapsed = (ContinuousClock.now - started).seconds
                    let cpu = try await PartyCPU.read(worker: worker, api: api, runtime: runtime) - cpuBefore
                    let allOpen = writes.allOpen()
                    let latency = try await self.deltaLatency(run.followed, writes: writes, allOpen: allOpen, key: key)
                    print(
                        String(
                            format: "provider streams: %d diag.generate jobs through one worker process: %d succeeded, %d failed, in %.1f s",
                            streams, outcomes.succeeded, outcomes.failed, elapsed))
                    print(
                        String(
                            format: "most streaming calls the simulator served at once: %d; deltas written: %d",
                            writes.mostConcurrent(), writes.deltaCount()))
                    print(
                        String(
                            format:
                                "cpu: worker %.2f s in all, %.2f ms per streaming call; api %.2f s; redis %.2f s; this process (the simulator and the clients) %.2f s",
                            cpu.worker, cpu.worker * 1000 / Double(streams), cpu.api, cpu.redis, cpu.benchmark))
                    let perDelta = 1_000_000 / Double(max(writes.deltaCount(), 1))
                    print(
                        String(
                            format:
                                "  a delta written, the whole run's cpu shared out: worker %.1f µs, api %.1f µs, redis %.1f µs, this process %.1f µs",
                            cpu.worker * perDelta, cpu.api * perDelta, cpu.redis * perDelta, cpu.benchmark * perDelta))
                    print(
                        "delta latency, leaving the simulator → reaching an SSE client of the API (\(run.followed.count) followed jobs): "
                            + Self.describe(latency.all))
                    let window = allOpen.map { String(format: " (%.1f s)", Double($0.upperBound - $0.lowerBound) / 1e9) } ?? ""
                    Self.printPhase("sent while all \(streams) calls were open\(window)", latency.allOpen)
                    Self.printPhase("sent while calls were starting", latency.starting)
                    Self.printPhase("sent while calls were ending", latency.ending)
                }
                try await runtime.namespace.deleteAll()
            }
        }
    }

    /// Seconds of CPU each party has used: the worker, the API node, Redis, and this process (the simulator stands in
    /// for providers elsewhere, but here it shares the two cores with Kiln).
    private struct PartyCPU {
        var worker: Double
        var api: Double
        var redis: Double
        var benchmark: Double

        static func read(worker: ChildProcess, api: ChildProcess, runtime: Runtime) async throws -> PartyCPU {
            PartyCPU(
                worker: worker.cpuSeconds, api: api.cpuSeconds, redis: try await runtime.redis.serverCPUSeconds(),
                benchmark: ProcessCPU.seconds(pid: getpid()))
        }

        static func - (after: PartyCPU, before: PartyCPU) -> PartyCPU {
            PartyCPU(
                worker: after.worker - before.worker, api: after.api - before.api, redis: after.redis - before.redis,
                benchmark: after.benchmark - before.benchmark)
        }
    }

    /// A provider file that sends `diag.generate` to the in-process simulator.
    private static func writeProviders(simulatorPort: Int, directory: String) throws -> String {
        let path = URL(fileURLWithPath: directory).appendingPathComponent("bench-providers.json").path
        let json = """
            {"providers": {"simulator": {"api": "anthropic", "base_url": "http://127.0.0.1:\(simulatorPort)", "api_key": "bench"}},
             "routes": [{"tenant": "*", "kind": "diag.generate", "models": [{"provider": "simulator", "model": "claude-bench"}]}]}
            """
        try json.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    /// A followed job: when its event stream opened, and its deltas as they arrived.
    struct Followed: Sendable {
        let job: String
        let openedAt: UInt64
        let deltas: [Arrival]
    }

    /// A delta event as a follower read it (times in monotonic nanoseconds).
    struct Arrival: Sendable {
        let at: UInt64
        /// When Redis appended it to the job's stream, read from the event's id; nil when it had none.
        let appendedAt: UInt64?
        /// The UTF-8 bytes of its text: the worker may join deltas that wait together into one event.
        let textBytes: Int
    }

    /// Submits the jobs spread evenly over one delta interval, so the streams' deltas interleave as real ones do
    /// instead of arriving in lockstep bursts; the first `listeners` of them are followed on their event stream from
    /// right after their submission.
    private func submitAndFollow(key: String) async throws -> (jobs: [String], followed: [Followed]) {
        let client = try HTTPClient(configuration: HTTPClientConfiguration(maxConnectionsPerHost: 256))
        defer { client.shutdown() }
        let headers: HTTPHeaders = ["Authorization": "Bearer \(key)", "Kiln-Identity": "bench-user", "Content-Type": "application/json"]
        return try await withThrowingTaskGroup(of: (String, Followed?).self) { group in
            let begin = ContinuousClock.now
            let spacing = Duration.milliseconds(deltaIntervalMs) / streams
            for index in 0..<streams {
                try await Task.sleep(until: begin + spacing * index, clock: .continuous)
                group.addTask {
                    let input: JSONValue = .object([
                        "prompt": .string("Benchmark story number \(index), about a harbour at night."),
                        "max_tokens": .number(Double(self.maxTokens)),
                    ])
                    let body = JSONValue.object(["kind": "diag.generate", "input": input]).canonicalJSON()
                    let response = try await client.execute(
                        HTTPRequest(method: "POST", url: "http://127.0.0.1:\(self.port)/v1/jobs", headers: headers, body: Array(body.utf8)))
                    guard response.status == 202, let id = JSONValue.parse(String(decoding: response.body, as: UTF8.self))?["id"]?.stringValue else {
                        throw ValidationError("a submission answered \(response.status): \(String(decoding: response.body, as: UTF8.self))")
                    }
                    guard index < self.listeners else { return (id, nil) }
                    return (id, try await Self.follow(id, client: client, headers: headers, port: self.port))
                }
            }
            var jobs: [String] = []
            var followed: [Followed] = []
            for try await (job, follow) in group {
                jobs.append(job)
                if let follow { followed.append(follow) }
            }
            return (jobs, followed)
        }
    }

    /// Reads a job's event stream until its final status, noting when each delta arrives.
    private static func follow(_ id: String, client: HTTPClient, headers: HTTPHeaders, port: Int) async throws -> Followed {
        let stream = Locked(FollowedStream())
        _ = try await client.stream(HTTPRequest(url: "http://127.0.0.1:\(port)/v1/jobs/\(id)/events", headers: headers), timeout: .seconds(600)) {
            _, bytes in
            let now = DispatchTime.now().uptimeNanoseconds
            return stream.withLock { $0.read(bytes, at: now) }
        }
        return stream.withLock { Followed(job: id, openedAt: $0.openedAt ?? 0, deltas: $0.deltas) }
    }

    private static func awaitFinished(_ jobs: [String], runtime: Runtime, tenant: TenantID) async throws -> (succeeded: Int, failed: Int) {
        var pending = jobs.compactMap(JobID.init(validating:))
        var succeeded = 0
        var failed = 0
        while !pending.isEmpty {
            var still: [JobID] = []
            for id in pending {
                guard let snapshot = try await runtime.namespace.queue.snapshot(id, tenant: tenant), snapshot.state.isTerminal else {
                    still.append(id)
                    continue
                }
                if snapshot.state == .succeeded { succeeded += 1 } else { failed += 1 }
            }
            pending = still
            if !pending.isEmpty { try await Task.sleep(for: .milliseconds(250)) }
        }
        return (succeeded, failed)
    }

    /// The delta latencies of the followed jobs: all of them, and split by whether the simulator sent the delta while
    /// every call was open, while calls were still starting (their submissions, claims and first requests; all of them,
    /// when the calls were never all open at once), or while they were already ending (their settlements and records).
    struct DeltaLatencies {
        var all = Histogram<UInt64>(highestTrackableValue: 600_000_000)
        var allOpen = PhaseLatencies()
        var starting = PhaseLatencies()
        var ending = PhaseLatencies()
    }

    /// The delta latencies of one phase of the run, also split where Redis appended them to the job's stream: before
    /// it, the simulator's write, the worker and Redis; after it, the API and the client. The appending is known to the
    /// millisecond (its entry id), so each part is off by up to half of one.
    struct PhaseLatencies {
        var whole = Histogram<UInt64>(highestTrackableValue: 600_000_000)
        var toStream = Histogram<UInt64>(highestTrackableValue: 600_000_000)
        var fromStream = Histogram<UInt64>(highestTrackableValue: 600_000_000)

        mutating func record(sentAt: UInt64, appendedAt: UInt64?, arrivedAt: UInt64) {
            _ = whole.record((arrivedAt - sentAt) / 1000)
            guard let appendedAt else { return }
            // Known to the millisecond only: held between the write and the arrival.
            let appended = min(max(appendedAt, sentAt), arrivedAt)
            _ = toStream.record((appended - sentAt) / 1000)
            _ = fromStream.record((arrivedAt - appended) / 1000)
        }
    }

    /// Pairs each delta the simulator wrote to a followed job's answer (found by the provider's request id in the job's
    /// result) with the event that brought its text to the follower: the texts are laid end to end on both sides, so a
    /// delta the worker joined with the next arrives with it. Deltas sent before the follower's stream opened are left
    /// out: they waited for the follower, not for Kiln.
    private func deltaLatency(
        _ followed: [Followed], writes: StreamWriteLog, allOpen: ClosedRange<UInt64>?, key: String
    ) async throws -> DeltaLatencies {
        let client = try HTTPClient()
        defer { client.shutdown() }
        let headers: HTTPHeaders = ["Authorization": "Bearer \(key)", "Kiln-Identity": "bench-user"]
        var latencies = DeltaLatencies()
        for follow in followed {
            let response = try await client.execute(HTTPRequest(url: "http://127.0.0.1:\(port)/v1/jobs/\(follow.job)", headers: headers))
            guard let requestID = JSONValue.parse(String(decoding: response.body, as: UTF8.self))?["result"]?["request_id"]?.stringValue else {
                continue
            }
            var arrivals = follow.deltas.makeIterator()
            var arrival = arrivals.next()
            var sentBytes = 0
            var arrivedBytes = arrival?.textBytes ?? 0
            for sent in writes.deltas(requestID) {
                sentBytes += sent.text.utf8.count
                while arrival != nil, arrivedBytes < sentBytes {
                    arrival = arrivals.next()
                    arrivedBytes += arrival?.textBytes ?? 0
                }
                guard let arrival, sent.at >= follow.openedAt, arrival.at >= sent.at else { continue }
                _ = latencies.all.record((arrival.at - sent.at) / 1000)
                if let allOpen, allOpen.contains(sent.at) {
                    latencies.allOpen.record(sentAt: sent.at, appendedAt: arrival.appendedAt, arrivedAt: arrival.at)
                } else if let allOpen, sent.at > allOpen.upperBound {
                    latencies.ending.record(sentAt: sent.at, appendedAt: arrival.appendedAt, arrivedAt: arrival.at)
                } else {
                    latencies.starting.record(sentAt: sent.at, appendedAt: arrival.appendedAt, arrivedAt: arrival.at)
                }
            }
        }
        return latencies
    }

    /// A phase's latencies as the benchmark prints them: the whole, then its two parts.
    private static func printPhase(_ name: String, _ phase: PhaseLatencies) {
        print("  \(name): \(describe(phase.whole))")
        print("    leaving the simulator → appended to the job's stream: \(describe(phase.toStream))")
        print("    appended to the job's stream → reaching the client: \(describe(phase.fromStream))")
    }

    /// A latency histogram as the benchmark prints it: its count, p50, p99 and max.
    private static func describe(_ latency: Histogram<UInt64>) -> String {
        String(
            format: "%llu deltas, p50 %.2f ms, p99 %.2f ms, max %.2f ms", latency.totalCount, Double(latency.valueAtPercentile(50)) / 1000,
            Double(latency.valueAtPercentile(99)) / 1000, Double(latency.max) / 1000)
    }
}
