import ArgumentParser
import KilnCommandLine
import KilnCore
import KilnQueue

struct AbuseCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "abuse", abstract: "Abuse detection: blocks in force, lifting one, and the log of trips.",
        subcommands: [Blocks.self, Lift.self, Log.self])

    struct Blocks: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "The blocks in force, soonest to end first.")
        @OptionGroup var connections: ConnectionOptions

        func run() async throws {
            let blocks = try await Runtime.with(connections) { try await $0.namespace.quota.abuseBlocks() }
            print("tenant\tsubject\treason\tends in (s)")
            for block in blocks { print("\(block.tenant)\t\(block.subject)\t\(block.reason)\t\(block.remaining.components.seconds)") }
        }
    }

    struct Lift: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Lift a subject's block.")
        @OptionGroup var connections: ConnectionOptions
        @Option(help: "Tenant id.") var tenant: String
        @Argument(help: "The blocked subject (the identity).") var subject: String

        func run() async throws {
            guard let tenantID = TenantID(validating: tenant) else { throw ValidationError("\(tenant) is not a tenant id") }
            let lifted = try await Runtime.with(connections) { try await $0.namespace.quota.liftBlock(tenant: tenantID, subject: subject) }
            print(lifted ? "lifted the block on \(subject)" : "\(subject) is not blocked")
            if !lifted { throw ExitCode(1) }
        }
    }

    struct Log: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "The latest trips of abuse thresholds (shadow mode's only output), newest first.")
        @OptionGroup var connections: ConnectionOptions
        @Option(help: "How many.") var limit = 100

        func run() async throws {
            let events = try await Runtime.with(connections) { try await $0.namespace.quota.abuseLog(limit: limit) }
            print("id\ttenant\tsubject\tsignal\taction\tduration (s)")
            for event in events {
                print("\(event.id)\t\(event.tenant)\t\(event.subject)\t\(event.signal)\t\(event.action)\t\(event.duration.components.seconds)")
            }
        }
    }
}
