import ArgumentParser
import Foundation
import KilnPolicy
import LoadTesting
import RedisClient
import Spawning

/// One generator process of `kiln-dev loadtest quota`, which starts several: it expands the run's plan, and for each
/// wave the parent releases sends its share with many requests in flight, appending every decision to its decisions
/// file.
struct QuotaGeneratorCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "quota-generator", abstract: "One generator process of `kiln-dev loadtest quota`, which starts it.", shouldDisplay: false)

    @Option(help: "The run's parameters, as JSON.") var parameters: String
    @Option(help: "This process's number, from 0.") var process: Int
    @Option(help: "Where to append this process's decisions.") var decisions: String
    @Option(help: "The load-test tenant.") var tenant: String
    @Option(help: "The tenants' policy file.") var policies: String
    @Option(help: "The API to ask; its key comes in KILN_API_KEY.") var apiURL: String?
    @Flag(help: "Decide naively against Redis instead of asking the API.") var naive = false
    @Option(help: "Redis, for --naive.") var redisURL: String?
    @Option(help: "Redis namespace, for --naive.") var namespace: String?

    func run() async throws {
        let parameters = try JSONDecoder().decode(QuotaLoadParameters.self, from: Data(parameters.utf8))
        let policy = try QuotaLoadCommand.policy(of: tenant, in: policies)
        let plan = try QuotaLoadPlan(parameters, policy: policy)
        let kinds = Array(Set(parameters.scenarios.flatMap(\.kinds)))
        let decider = try makeDecider(policy: policy, kinds: kinds, connections: parameters.connections)
        try await decider.warmUp(connections: parameters.connections)
        _ = FileManager.default.createFile(atPath: decisions, contents: nil)
        let output = try FileHandle(forWritingTo: URL(fileURLWithPath: decisions))
        try say("ready")
        for await command in FileHandle.standardInput.readLines() {
            if command == "stop" { break }
            guard command.hasPrefix("go "), let wave = Int(command.dropFirst(3)), (0..<plan.waveCount).contains(wave) else {
                throw ValidationError("unknown command \"\(command)\"")
            }
            let answered = await WaveLanes.send(
                plan.share(ofWave: wave, process: process), wave: wave, connections: parameters.connections, to: decider)
            try output.write(contentsOf: Data(answered.map { $0.line + "\n" }.joined().utf8))
            try say("done \(wave)")
        }
        try output.close()
        try await decider.close()
    }

    private func makeDecider(policy: TenantPolicy, kinds: [String], connections: Int) throws -> any AdmissionDecider {
        if naive {
            guard let redisURL, var configuration = RedisConfiguration(url: redisURL), let namespace else {
                throw ValidationError("--naive needs --redis-url and --namespace")
            }
            // As many connections as requests in flight, as many clients of a shared Redis would have.
            configuration.sharedConnections = connections
            return NaiveAdmission(redis: configuration, namespace: namespace, policy: policy)
        }
        guard let apiURL, let key = ProcessInfo.processInfo.environment["KILN_API_KEY"] else {
            throw ValidationError("give --api-url, with the key in KILN_API_KEY, or --naive")
        }
        return try APIAdmission(apiURL: apiURL, key: key, kinds: kinds, connections: connections)
    }

    /// Writes one line to the parent, at once: standard output is a pipe, which `print` would buffer.
    private func say(_ line: String) throws {
        try FileHandle.standardOutput.write(contentsOf: Data("\(line)\n".utf8))
    }
}
