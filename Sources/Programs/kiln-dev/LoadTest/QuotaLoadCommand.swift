import ArgumentParser
import Foundation
import KilnCommandLine
import KilnCore
import KilnPolicy
import LoadTesting
import UnixSignals

/// `kiln-dev loadtest quota`: drives the real HTTP API with many identities and devices from several processes at once,
/// records every decision, and audits each one against the tenant's policy. Prints decisions per second, latency and
/// the audit's verdict; exits non-zero when the audit finds anything wrong.
struct QuotaLoadCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "quota",
        abstract: "Drive admission from several processes at once and audit every decision.",
        discussion: """
            Without --api-url it starts its own API node on a fresh Redis namespace, with the load-test tenant and a new \
            key. With --api-url (and the tenant's key in --key or KILN_API_KEY) it drives any deployment whose API nodes \
            load the same policy file. --naive decides without the API (read, then increment, against Redis): the \
            audit must fail. See loadtests/README.md.
            """)

    @OptionGroup var servers: ConnectionOptions
    @Option(
        name: .customLong("scenario"),
        help: "A scenario to run; repeat for several (default: all of \(Self.scenarioNames)).",
        transform: { name in
            guard let scenario = QuotaScenario(rawValue: name) else {
                throw ValidationError("no scenario \(name): choose from \(Self.scenarioNames)")
            }
            return scenario
        })
    var scenarios: [QuotaScenario] = []
    @Option(help: "Identities per scenario and round.") var identities = 1000
    @Option(help: "Requests each identity sends at once.") var requests = 20
    @Option(help: "Rounds of each scenario, each with new identities.") var rounds = 1
    @Option(help: "Generator processes.") var processes = 4
    @Option(help: "Requests in flight per generator process.") var connections = 4
    @Option(help: "Most decisions released by one barrier.") var waveSize = 10_000
    @Flag(help: "The negative control: decide by reading, then incrementing, counters in Redis, without the API.") var naive = false
    @Option(help: "A deployment's API to drive instead of starting one.") var apiURL: String?
    @Option(help: "The load-test tenant's API key, with --api-url (env KILN_API_KEY).")
    var key: String = ProcessInfo.processInfo.environment["KILN_API_KEY"] ?? ""
    @Option(help: "The load-test tenant.") var tenant = "loadtest"
    @Option(help: "The tenants' policy file: the API node's, and the audit's numbers (env KILN_POLICIES).")
    var policies: String = ProcessInfo.processInfo.environment["KILN_POLICIES"] ?? "deploy/policies.json"
    @Option(help: "Port of the API node it starts (default: a free one).") var port: Int?
    @Option(help: "Where each run keeps its decisions and logs.") var outputDirectory = ".kiln/loadtest"
    @Flag(help: "Keep the decision files of a run that passed.") var keepDecisions = false

    static let scenarioNames = QuotaScenario.allCases.map(\.rawValue).joined(separator: ", ")

    func run() async throws {
        // A generator that dies closes its pipe; writing to it must fail with an error rather than kill this process.
        signal(SIGPIPE, SIG_IGN)
        // Ctrl-C or SIGTERM cancels the run, which then stops the processes it started and deletes its namespace rather
        // than leave them behind.
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await runLoad() }
            group.addTask {
                for await _ in await UnixSignalsSequence(trapping: .sigint, .sigterm) { throw LoadRunError("interrupted") }
            }
            try await group.next()
            group.cancelAll()
        }
    }

    private func runLoad() async throws {
        let policy = try Self.policy(of: tenant, in: policies)
        let runID = "lt\(UUID().uuidString.prefix(6).lowercased())"
        let parameters = QuotaLoadParameters(
            runID: runID, scenarios: scenarios.isEmpty ? QuotaScenario.allCases : scenarios, identities: identities,
            requestsPerIdentity: requests, rounds: rounds, processes: processes, connections: connections, waveSize: waveSize)
        let plan: QuotaLoadPlan
        do {
            plan = try QuotaLoadPlan(parameters, policy: policy)
        } catch {
            throw ValidationError(error.description)
        }
        let runDirectory = "\(outputDirectory)/\(runID)"
        try FileManager.default.createDirectory(atPath: runDirectory, withIntermediateDirectories: true)

        let started = ContinuousClock.now
        let cpu = try await withTarget(runID: runID, logDirectory: runDirectory) { target in
            let concurrency = "\(processes) processes × \(connections) in flight"
            print("quota load test \(runID): \(plan.requestCount) requests, \(concurrency), \(target.description)")
            return try await drive(plan, policy: policy, target: target, runDirectory: runDirectory)
        }
        let wall = ContinuousClock.now - started
        let figures = try QuotaLoadFigures(reading: (0..<processes).map { decisionsPath(runDirectory, $0) }, plan: plan, policy: policy)
        report(figures, cpu: cpu, wall: wall, plan: plan)
        guard figures.verdict.passed else {
            print("decisions kept in \(runDirectory)")
            throw ExitCode.failure
        }
        if !keepDecisions { try? FileManager.default.removeItem(atPath: runDirectory) }
    }

    /// The load-test tenant's section of the policy file.
    static func policy(of tenant: String, in path: String) throws -> TenantPolicy {
        let policies: PolicySet
        do {
            policies = try PolicySet.load(path: path)
        } catch let error as PolicyError {
            throw ValidationError("\(path): \(error)")
        }
        guard let id = TenantID(validating: tenant), let policy = policies[id] else {
            throw ValidationError("\(path) has no section for tenant \(tenant)")
        }
        return policy
    }

    private func decisionsPath(_ runDirectory: String, _ process: Int) -> String {
        "\(runDirectory)/decisions-\(process).tsv"
    }

    /// Starts the generators, releases the waves one barrier at a time, and stops them.
    /// - Returns: the CPU each party used while the waves ran.
    private func drive(_ plan: QuotaLoadPlan, policy: TenantPolicy, target: LoadTarget, runDirectory: String) async throws -> CPUUse {
        if case .api(let url, let key) = target.decider { try await checkAPIAgrees(url: url, key: key, plan: plan, policy: policy) }
        let parameters = String(decoding: try JSONEncoder().encode(plan.parameters), as: UTF8.self)
        let environment = ProcessInfo.processInfo.environment.merging(target.generatorEnvironment) { $1 }
        let generators = try (0..<processes).map { index in
            try GeneratorProcess(
                index: index,
                arguments: [
                    "loadtest", "quota-generator", "--parameters", parameters, "--process", String(index), "--decisions",
                    decisionsPath(runDirectory, index), "--tenant", tenant, "--policies", policies,
                ] + target.generatorArguments,
                environment: environment, logPath: "\(runDirectory)/generator-\(index).log")
        }
        do {
            for generator in generators { try await generator.expect("ready") }
            let before = try await CPUUse.sample(target: target, generators: generators)
            let started = ContinuousClock.now
            var lastProgress = started
            for wave in 0..<plan.waveCount {
                for generator in generators { try generator.send("go \(wave)") }
                for generator in generators { try await generator.expect("done \(wave)") }
                if ContinuousClock.now - lastProgress > .seconds(10) {
                    print("  wave \(wave + 1) of \(plan.waveCount)")
                    lastProgress = ContinuousClock.now
                }
            }
            var used = try await CPUUse.sample(target: target, generators: generators) - before
            used.elapsed = ContinuousClock.now - started
            for generator in generators where await !generator.stop() {
                throw LoadRunError("generator \(generator.index) failed; see \(generator.logPath)")
            }
            return used
        } catch {
            for generator in generators { _ = await generator.stop() }
            throw error
        }
    }
}
