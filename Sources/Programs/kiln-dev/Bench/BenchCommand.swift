import ArgumentParser
import CurlClient
import Foundation
import Histogram
import KilnCommandLine
import KilnCore
import KilnJSON
import KilnQueue
import KilnStore
import LoadGeneration
import Locking
import RedisClient

/// `kiln-dev bench`: prints HTTP submissions per second as a ratio of the bare framework's floor measured beside them,
/// no-op jobs processed per second by one and two worker processes (and, with `--reference`, as a ratio of Sidekiq's
/// rate measured right after), and submit → handler-start and submit → result-readable latency at a steady rate. It
/// starts its own API and workers (as child processes) on a namespace of its own, against the Redis and PostgreSQL
/// given. Speeds drift from one day to the next on a shared machine: the ratios, each measured in one run, are the
/// figures to compare.
struct BenchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench", abstract: "Measure throughput and latency; prints figures.",
        subcommands: [
            ProviderBenchCommand.self, FollowerBenchCommand.self, MCPBenchCommand.self, VideoBenchCommand.self, DocumentBenchCommand.self,
            RecorderBenchCommand.self,
            ShardBenchCommand.self, ErasureBenchCommand.self, ConsoleBenchCommand.self, FloorServerCommand.self,
        ])

    @OptionGroup var connections: ConnectionOptions
    @Option(help: "No-op jobs per burn-down run.") var jobs = 100_000
    @Option(help: "Seconds of HTTP submissions.") var seconds = 5.0
    @Option(help: "Concurrent HTTP requests.") var connectionsCount = 64
    @Option(help: "Jobs per second of the latency run.") var rate = 500
    @Option(help: "Seconds of the latency run.") var latencySeconds = 10.0
    @Option(help: "Port of the API the benchmark starts.") var port = 8797
    @Option(help: "Port of the bare Hummingbird server the submissions are measured against.") var floorPort = 8798
    @Option(help: "A reference queue's benchmark script (../shared/bench/sidekiq-reference.sh), run right after the no-op burn-down.")
    var reference: String?
    @Option(help: "Where the child processes log.") var logDirectory = ".kiln/logs"

    private var stack: BenchStack { BenchStack(connections: connections, port: port, logDirectory: logDirectory) }

    func run() async throws {
        try FileManager.default.createDirectory(atPath: logDirectory, withIntermediateDirectories: true)
        let namespace = "bench-\(UUID().uuidString.prefix(8).lowercased())"
        var options = connections
        options.namespace = namespace
        try await Runtime.with(options) { runtime in
            try await runtime.namespace.prepare()
            let tenant = try await stack.tenant(runtime)
            let key = try await APIKeyStore(pool: runtime.database).create(tenant: tenant.id).1

            let floor = try await floorSubmissions(key: key)
            print(
                String(
                    format:
                        "bare hummingbird POST (the floor): %.0f/s (%d concurrent requests, %.0f s); server cpu %.1f µs a request (the generator %.1f µs)",
                    floor.rate, connectionsCount, seconds, floor.serverMicroseconds, floor.generatorMicroseconds))
            let roundTrip = try await floorSubmissions(key: key, redisURL: connections.redisURL)
            print(
                String(
                    format:
                        "  the floor with the api's redis round trip (a PING through kiln's client, tasks on the event loops): %.0f/s; server cpu %.1f µs a request",
                    roundTrip.rate, roundTrip.serverMicroseconds))
            let submissions = try await httpSubmissions(runtime, namespace: namespace, key: key)
            print(
                String(
                    format:
                        "http submissions: %.0f/s = %.2f× the floor (%d concurrent requests, %.0f s); cpu per submission: api %.1f µs, redis %.1f µs = %.2f× the floor's (the generator %.1f µs)",
                    submissions.rate, submissions.rate / floor.rate, connectionsCount, seconds, submissions.serverMicroseconds,
                    submissions.redisMicroseconds, (submissions.serverMicroseconds + submissions.redisMicroseconds) / floor.serverMicroseconds,
                    submissions.generatorMicroseconds))
            print(
                String(
                    format: "  kiln's own work in the api (its cpu a submission less the floor's with the round trip): %.1f µs",
                    submissions.serverMicroseconds - roundTrip.serverMicroseconds))
            try await runtime.namespace.deleteAll()

            let costs = try await ScriptCosts.measure(runtime: runtime, tenant: tenant, jobs: 10_000)
            print("redis cpu per job: \(costs.line) (10000 jobs, one stage at a time)")
            for stage in costs.stages { print("  \(stage.summary)") }
            try await runtime.namespace.deleteAll()

            var burnDowns: [Int: BurnDown] = [:]
            for workers in [1, 2] {
                let run = try await burnDown(runtime, tenant: tenant, namespace: namespace, workers: workers)
                burnDowns[workers] = run
                print(
                    String(
                        format:
                            "no-op jobs processed by %d worker process%@: %.0f/s from the first done to the last recorded (%.0f/s with its start), %d jobs; cpu per job: redis %.1f µs, workers %.1f µs, postgresql %.1f µs",
                        workers, workers == 1 ? "" : "es", run.steadyRate, run.rateWithStart, jobs, run.cpu.redis, run.cpu.workers, run.cpu.postgres))
                print("  \(run.redis.summary)")
                try await runtime.namespace.deleteAll()
            }
            if let reference {
                let referenceRates = try await ReferenceQueue(script: reference, jobs: jobs).run()
                for (workers, run) in burnDowns.sorted(by: { $0.key < $1.key }) {
                    print(
                        String(
                            format: "no-op jobs, %d worker process%@: %.2f× the reference (%.2f× with both starts)", workers,
                            workers == 1 ? "" : "es", run.steadyRate / referenceRates.steady, run.rateWithStart / referenceRates.withStart))
                }
            }

            // Following each job's events adds load, so handler start is measured in a run of its own, which reads the
            // jobs' start times only once every submission is in: the run's load is the submissions alone.
            let start = try await latency(namespace: namespace, key: key, followEvents: false)
            let readable = try await latency(namespace: namespace, key: key, followEvents: true)
            for (name, histogram) in [("submit→handler start", start), ("submit→result readable (its event stream)", readable)] {
                print(
                    String(
                        format: "latency at %d jobs/s through HTTP, %@: p50 %.2f ms p99 %.2f ms (%llu jobs)", rate, name,
                        Double(histogram.valueAtPercentile(50)) / 1000, Double(histogram.valueAtPercentile(99)) / 1000, histogram.totalCount))
            }
            try await runtime.namespace.deleteAll()
        }
    }

    private static let submitBody = Array(#"{"kind":"diag.echo","input":{"message":"bench"}}"#.utf8)

    private static func submitHeaders(key: String) -> [(name: String, value: String)] {
        [("Authorization", "Bearer \(key)"), ("Kiln-Identity", "bench-user"), ("Content-Type", "application/json")]
    }

    private func submitRequest(key: String, port: Int) -> HTTPRequest {
        HTTPRequest(
            method: "POST", url: "http://127.0.0.1:\(port)/v1/jobs", headers: HTTPHeaders(Self.submitHeaders(key: key)), body: Self.submitBody)
    }

    /// Enqueues `count` `diag.echo` jobs straight into the queue, 32 at a time, over 16 identities of each tenant.
    static func enqueueNoOps(_ count: Int, runtime: Runtime, tenants: [Tenant]) async throws {
        let identities = (0..<16).compactMap { Identity(validating: "bench-\($0)") }
        try await withThrowingTaskGroup(of: Void.self) { group in
            let perTask = count / 32
            for slice in 0..<32 {
                group.addTask {
                    for index in 0..<(slice == 31 ? count - perTask * 31 : perTask) {
                        let tenant = tenants[index % tenants.count]
                        _ = try await runtime.namespace.queue.enqueue(
                            Submission(
                                tenant: tenant.id, identity: identities[index % identities.count], kind: "diag.echo", jobClass: .io,
                                priority: .normal, input: "{}", maxAttempts: 3, timeout: .seconds(30), runningCap: tenant.runningCap,
                                weight: tenant.weight))
                    }
                }
            }
            try await group.waitForAll()
        }
    }

    /// Submissions per second and the CPU each cost the server (and Redis) and the generator (this process).
    private struct SubmissionFigures {
        var rate: Double
        var serverMicroseconds: Double
        var redisMicroseconds = 0.0
        var generatorMicroseconds: Double
    }

    /// What ``measureSubmissions(port:key:)`` saw.
    private struct Generated {
        var rate: Double
        var accepted: Int
        /// Seconds of CPU this process used meanwhile: the generator's, on the same cores as the server's.
        var cpuSeconds: Double

        func microseconds(_ seconds: Double) -> Double { seconds * 1_000_000 / Double(max(accepted, 1)) }
    }

    /// The same requests, from the same generator, to a bare Hummingbird route that reads the body and answers 202 (with
    /// `redisURL`, after a PING through Kiln's Redis client).
    private func floorSubmissions(key: String, redisURL: String? = nil) async throws -> SubmissionFigures {
        let server = try ChildProcess(
            ["bench", "floor-server", "--port", String(floorPort)] + (redisURL.map { ["--redis-url", $0] } ?? []), program: .kilnDev,
            logTo: "\(logDirectory)/bench-floor.log")
        return try await stack.stopping([server]) {
            guard try await APIReadiness.wait(for: "http://127.0.0.1:\(floorPort)", within: .seconds(10), every: .milliseconds(100)) else {
                throw ValidationError("the floor server did not start; see \(logDirectory)/bench-floor.log")
            }
            let cpuBefore = server.cpuSeconds
            let generated = try await measureSubmissions(port: floorPort, key: key)
            return SubmissionFigures(
                rate: generated.rate, serverMicroseconds: generated.microseconds(server.cpuSeconds - cpuBefore),
                generatorMicroseconds: generated.microseconds(generated.cpuSeconds))
        }
    }

    private func httpSubmissions(_ runtime: Runtime, namespace: String, key: String) async throws -> SubmissionFigures {
        let api = try await stack.startAPI(namespace: namespace)
        return try await stack.stopping([api]) {
            let cpuBefore = api.cpuSeconds
            let redisBefore = try await runtime.redis.serverCPUSeconds()
            let generated = try await measureSubmissions(port: port, key: key)
            return SubmissionFigures(
                rate: generated.rate, serverMicroseconds: generated.microseconds(api.cpuSeconds - cpuBefore),
                redisMicroseconds: generated.microseconds(try await runtime.redis.serverCPUSeconds() - redisBefore),
                generatorMicroseconds: generated.microseconds(generated.cpuSeconds))
        }
    }

    /// Posts `diag.echo` submissions to the server on `port` for ``seconds``, ``connectionsCount`` at a time: each of as
    /// many lanes sends its next from the answer to the one before, on the load client's thread (a generator as cheap a
    /// request as it can be, since it shares the cores with the server it measures).
    private func measureSubmissions(port: Int, key: String) async throws -> Generated {
        let client = try LoadClient(url: "http://127.0.0.1:\(port)", connections: connectionsCount)
        defer { client.shutdown() }
        let request = client.request("POST", "/v1/jobs", headers: Self.submitHeaders(key: key), body: Self.submitBody)
        let cpuBefore = ProcessCPU.seconds(pid: getpid())
        let deadline = ContinuousClock.now + .milliseconds(Int64(seconds * 1000))
        let started = ContinuousClock.now
        let tally = Locked((accepted: 0, lanesRunning: connectionsCount, failure: String?.none))
        let (accepted, failure) = await withCheckedContinuation { (continuation: CheckedContinuation<(Int, String?), Never>) in
            @Sendable func send() {
                client.send(request) { result in
                    let ended = ContinuousClock.now >= deadline
                    let done = tally.withLock { tally -> (Int, String?)? in
                        switch result {
                        case .success(let response) where response.status == 202: tally.accepted += 1
                        case .success(let response): tally.failure = tally.failure ?? "a submission was answered \(response.status)"
                        case .failure(let error): tally.failure = tally.failure ?? "\(error)"
                        }
                        guard ended else { return nil }
                        tally.lanesRunning -= 1
                        return tally.lanesRunning == 0 ? (tally.accepted, tally.failure) : nil
                    }
                    if let done { continuation.resume(returning: done) } else if !ended { send() }
                }
            }
            for _ in 0..<connectionsCount { send() }
        }
        if let failure { throw ValidationError("the submissions did not all go through: \(failure)") }
        return Generated(
            rate: Double(accepted) / (ContinuousClock.now - started).seconds, accepted: accepted,
            cpuSeconds: ProcessCPU.seconds(pid: getpid()) - cpuBefore)
    }

    /// Microseconds of CPU per job that each party used.
    private struct CPUPerJob {
        var redis = 0.0
        var workers = 0.0
        var postgres = 0.0
    }

    /// One burn-down's figures.
    private struct BurnDown {
        /// Jobs per second from the first job done to the last one recorded: how the reference counts its rate.
        var steadyRate: Double
        /// Jobs per second from starting the worker processes to the last job recorded.
        var rateWithStart: Double
        var cpu: CPUPerJob
        /// What Redis spent during it, by command.
        var redis: ScriptCosts.Stage
    }

    private func burnDown(_ runtime: Runtime, tenant: Tenant, namespace: String, workers: Int) async throws -> BurnDown {
        try await Self.enqueueNoOps(jobs, runtime: runtime, tenants: [tenant])
        var figures: (steadyRate: Double, rateWithStart: Double, cpu: CPUPerJob)?
        // Redis's CPU is the stage's own reading of it, around the whole run.
        let redis = try await ScriptCosts.stage("redis during the burn-down", runtime: runtime, jobs: jobs) {
            let postgresBefore = ProcessCPU.seconds(command: "postgres")
            let started = ContinuousClock.now
            let children = try stack.burnDownWorkers(workers, namespace: namespace, logName: "bench-worker")
            figures = try await stack.stopping(children) {
                let first = try await Self.awaitDrained(runtime, jobs: jobs)
                let ended = ContinuousClock.now
                let perJob = 1_000_000 / Double(jobs)
                let cpu = CPUPerJob(
                    workers: children.map(\.cpuSeconds).reduce(0, +) * perJob,
                    postgres: (ProcessCPU.seconds(command: "postgres") - postgresBefore) * perJob)
                return (Double(jobs - first.done) / (ended - first.at).seconds, Double(jobs) / (ended - started).seconds, cpu)
            }
        }
        guard var figures else { throw ValidationError("the burn-down ended without figures") }
        figures.cpu.redis = redis.cpu
        return BurnDown(steadyRate: figures.steadyRate, rateWithStart: figures.rateWithStart, cpu: figures.cpu, redis: redis)
    }

    /// Returns once no job is ready, in flight or unrecorded: a burn-down's end. - Returns: when it first found jobs
    /// done (fewer than `jobs` ready or in flight, looking every 5 ms as the reference does), and how many then.
    @discardableResult
    static func awaitDrained(_ runtime: Runtime, jobs: Int) async throws -> (at: ContinuousClock.Instant, done: Int) {
        var first: (at: ContinuousClock.Instant, done: Int)?
        while true {
            let stats = try await runtime.namespace.admin.stats()
            let waiting = stats.ready.reduce(0) { $0 + $1.count } + stats.inFlight
            if first == nil && waiting < jobs { first = (ContinuousClock.now, jobs - waiting) }
            if let first, waiting == 0 && stats.unrecorded == 0 { return first }
            try await Task.sleep(for: .milliseconds(5))
        }
    }

    private func latency(namespace: String, key: String, followEvents: Bool) async throws -> Histogram<UInt64> {
        let api = try await stack.startAPI(namespace: namespace)
        let worker = try ChildProcess(stack.childArguments("worker", namespace: namespace), logTo: "\(logDirectory)/bench-worker-latency.log")
        return try await stack.stopping([api, worker]) { try await measureLatency(key: key, followEvents: followEvents) }
    }

    /// Microseconds from sending each submission to its handler's start, or (`followEvents`) to its result arriving on the
    /// job's event stream.
    private func measureLatency(key: String, followEvents: Bool) async throws -> Histogram<UInt64> {
        let client = try HTTPClient(configuration: HTTPClientConfiguration(maxConnectionsPerHost: 256))
        defer { client.shutdown() }
        let request = submitRequest(key: key, port: port)
        // The first second warms up (connections opened, caches filled) and is not measured: the figures are steady state.
        let warmUp = rate
        let total = warmUp + Int(Double(rate) * latencySeconds)
        let interval = Duration.seconds(1) / rate
        let begin = ContinuousClock.now
        // Submissions go out on schedule, each on its own task, so a slow answer does not delay the next one. Following
        // events, each task then reads its job's stream until the result is readable, as an app would.
        let submitted: [Submitted] = try await withThrowingTaskGroup(of: Submitted?.self) { group in
            for index in 0..<total {
                try await Task.sleep(until: begin + interval * index, clock: .continuous)
                group.addTask {
                    let submitted = try await submit(request, key: key, client: client, follow: followEvents)
                    return index < warmUp ? nil : submitted
                }
            }
            return try await group.reduce(into: []) { if let submitted = $1 { $0.append(submitted) } }
        }
        let samples = followEvents ? submitted.compactMap(\.resultReadable) : try await handlerStarts(submitted, key: key, client: client)
        var histogram = Histogram<UInt64>(highestTrackableValue: 60_000_000)
        for sample in samples { _ = histogram.record(UInt64(max(0, sample))) }
        return histogram
    }

    /// A submission of the latency run that succeeded: its job, when it was sent, and (when its events were followed)
    /// microseconds until its result was readable.
    private struct Submitted: Sendable {
        let id: String
        let sentAt: Int64
        let resultReadable: Int64?
    }

    /// Submits one job, and with `follow` follows its event stream until the result arrives. - Returns: nil when the
    /// submission was refused or the job did not succeed.
    private func submit(_ request: HTTPRequest, key: String, client: HTTPClient, follow: Bool) async throws -> Submitted? {
        let sentAt = Self.now()
        let response = try await client.execute(request)
        guard response.status == 202, case .string(let id)? = JSONValue.parse(String(decoding: response.body, as: UTF8.self))?["id"] else {
            return nil
        }
        guard follow else { return Submitted(id: id, sentAt: sentAt, resultReadable: nil) }
        let events = try await client.stream(
            HTTPRequest(method: "GET", url: "http://127.0.0.1:\(port)/v1/jobs/\(id)/events", headers: Self.readHeaders(key)), timeout: .seconds(30))
        var text = ""
        for try await chunk in events.body {
            text += String(decoding: chunk, as: UTF8.self)
            if text.contains(#""state":"succeeded""#) { return Submitted(id: id, sentAt: sentAt, resultReadable: Self.now() - sentAt) }
        }
        return nil
    }

    /// Microseconds from sending each submission to its handler's start (the handler's own timestamp, in its result),
    /// read once every submission is in, 32 jobs at a time; jobs that did not succeed are left out.
    private func handlerStarts(_ submitted: [Submitted], key: String, client: HTTPClient) async throws -> [Int64] {
        try await Task.sleep(for: .seconds(1))
        return try await withThrowingTaskGroup(of: Int64?.self) { group in
            func read(_ job: Submitted) async throws -> Int64? {
                let answer = try await client.execute(
                    HTTPRequest(method: "GET", url: "http://127.0.0.1:\(port)/v1/jobs/\(job.id)", headers: Self.readHeaders(key)))
                guard case .number(let startedAt)? = JSONValue.parse(String(decoding: answer.body, as: UTF8.self))?["result"]?["started_at_us"]
                else { return nil }
                return Int64(startedAt) - job.sentAt
            }
            var starts: [Int64] = []
            for (index, job) in submitted.enumerated() {
                if index >= 32, let start = try await group.next() ?? nil { starts.append(start) }
                group.addTask { try await read(job) }
            }
            for try await start in group { if let start { starts.append(start) } }
            return starts
        }
    }

    private static func readHeaders(_ key: String) -> HTTPHeaders {
        ["Authorization": "Bearer \(key)", "Kiln-Identity": "bench-user"]
    }

    /// Microseconds since 1970, the clock of the handler's own timestamp.
    private static func now() -> Int64 { Int64(Date().timeIntervalSince1970 * 1_000_000) }
}
