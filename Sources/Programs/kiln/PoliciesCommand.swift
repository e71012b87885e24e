import ArgumentParser
import KilnCore
import KilnPolicy

struct PoliciesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "policies", abstract: "The tenants' policy file.", subcommands: [Check.self])

    struct Check: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Read a policy file as the API and the workers would: print its tenants, or name the wrong field and exit 64.")
        @OptionGroup var policyOptions: PolicyOptions

        func run() throws {
            let tenants = try policyOptions.load().tenants.keys.map(\.rawValue).sorted()
            print("\(policyOptions.policies): \(tenants.count) tenants: \(tenants.joined(separator: ", "))")
        }
    }
}
