import ArgumentParser
import KilnCommandLine
import KilnCore
import KilnStore

struct TenantCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tenant", abstract: "Create and list tenants.", subcommands: [Create.self, List.self])

    struct Create: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Create a tenant; exits 3 when it exists already.")

        @OptionGroup var connections: ConnectionOptions
        @Argument(help: "The tenant's slug: a-z, 0-9 and dashes.") var id: String
        @Option(help: "Display name.") var name: String?
        @Option(help: "Share of the workers when tenants compete (1–1000).") var weight = 1
        @Option(help: "Jobs one identity may have running at once.") var runningCap = 8
        @Flag(help: "Accept the diag.* kinds (tests and benchmarks).") var diagnostics = false

        func run() async throws {
            guard let tenant = TenantID(validating: id) else { throw ValidationError("the id must be 1–63 of a-z, 0-9 and -") }
            guard (1...1000).contains(weight) else { throw ValidationError("--weight must be between 1 and 1000") }
            guard runningCap >= 1 else { throw ValidationError("--running-cap must be at least 1") }
            do {
                try await Runtime.with(connections) { runtime in
                    _ = try await TenantStore(pool: runtime.database).create(
                        id: tenant, name: name ?? id, weight: weight, runningCap: runningCap, diagnostics: diagnostics)
                }
            } catch let error as StoreError where error.code == .alreadyExists {
                print("tenant \(id) exists already")
                throw ExitCode(3)
            }
            print("tenant \(id) created")
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List tenants.")
        @OptionGroup var connections: ConnectionOptions

        func run() async throws {
            let tenants = try await Runtime.with(connections) { try await TenantStore(pool: $0.database).list() }
            print("id\tname\tweight\trunning_cap\tdiagnostics")
            for tenant in tenants {
                print("\(tenant.id)\t\(tenant.name)\t\(tenant.weight)\t\(tenant.runningCap)\t\(tenant.diagnostics)")
            }
        }
    }
}
