import ArgumentParser
import Foundation
import KilnPolicy

/// Where the tenants' policy file is.
struct PolicyOptions: ParsableArguments {
    @Option(help: "The tenants' policy file: quotas, cooldowns, tiers (env KILN_POLICIES).")
    var policies: String = ProcessInfo.processInfo.environment["KILN_POLICIES"] ?? "deploy/policies.json"

    /// The policies; a wrong file stops the command, naming the field, rather than letting it work on a guess.
    func load() throws -> PolicySet {
        do {
            return try PolicySet.load(path: policies)
        } catch let error as PolicyError {
            throw ValidationError("\(policies): \(error)")
        }
    }
}
