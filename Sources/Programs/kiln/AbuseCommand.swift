import ArgumentParser
import KilnCommandLine
import KilnCore
import KilnQueue

struct AbuseCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "abuse", abstract: "Abuse detection: blocks in force, blocking and lifting, and the log of trips.",
        subcommands: [Blocks.self, Block.self, Lift.self, Log.self])

    struct Blocks: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "The blocks in force, soonest to end first.")
        @OptionGroup var connections: ConnectionOptions

        func run() async throws {
            let blocks = try await Runtime.with(connections) { try await $0.namespace.quota.abuseBlocks() }
            print("tenant\tkind\tblocked\tby\treason\tends in (s)")
            for block in blocks {
                let by = block.byOperator ? "operator" : "detection"
                print("\(block.tenant)\t\(block.target.kind)\t\(block.subject)\t\(by)\t\(block.reason)\t\(block.remaining.components.seconds)")
            }
        }
    }

    /// Which identity, device or address a block is on.
    struct TargetOptions: ParsableArguments {
        @Option(help: "Tenant id.") var tenant: String
        @Flag(help: "The subject is a device (as apps send it in Kiln-Device).") var device = false
        @Flag(help: "The subject is a client address (as the API node sees it).") var address = false
        @Argument(help: "The identity as stored (abuse detection's subject), or with --device or --address the device or the address.")
        var subject: String

        func validate() throws {
            _ = try tenantID()
            guard !(device && address) else { throw ValidationError("give --device or --address, not both") }
            guard !subject.isEmpty, subject.utf8.count <= 256 else { throw ValidationError("the subject is 1 to 256 bytes") }
        }

        func tenantID() throws -> TenantID {
            guard let id = TenantID(validating: tenant) else { throw ValidationError("\(tenant) is not a tenant id") }
            return id
        }
        var target: BlockTarget { device ? .device(subject) : address ? .address(subject) : .identity(subject) }
    }

    struct Block: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Block an identity, a device or an address from submitting: admission refuses it until the block ends or is lifted.")
        @OptionGroup var connections: ConnectionOptions
        @OptionGroup var target: TargetOptions
        @Option(help: "Why: shown with the block and in the refusal's detail.") var reason: String
        @Option(name: .customLong("for"), help: "Seconds the block lasts.") var seconds = 86_400

        func validate() throws {
            guard (1...31_536_000).contains(seconds) else { throw ValidationError("--for: 1 second to a year") }
            guard !reason.isEmpty, reason.utf8.count <= 200 else { throw ValidationError("--reason: 1 to 200 bytes") }
        }

        func run() async throws {
            try await Runtime.with(connections) {
                try await $0.namespace.quota.block(target.target, tenant: try target.tenantID(), reason: reason, for: .seconds(seconds))
            }
            print("blocked the \(target.target.kind) \(target.subject) for \(seconds) s")
        }
    }

    struct Lift: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Lift the block of an identity, a device or an address.")
        @OptionGroup var connections: ConnectionOptions
        @OptionGroup var target: TargetOptions

        func run() async throws {
            let lifted = try await Runtime.with(connections) { try await $0.namespace.quota.lift(target.target, tenant: try target.tenantID()) }
            print(lifted ? "lifted the block on \(target.subject)" : "\(target.subject) is not blocked")
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
