import ArgumentParser
import Foundation
import KilnCommandLine
import KilnCore
import KilnStore

struct OperatorCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "operator", abstract: "The console's operators: create (the token is shown once), list and revoke.",
        subcommands: [Create.self, List.self, Revoke.self])

    struct Create: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Create an operator and print its token; exits 3 when the name is taken.")
        @OptionGroup var connections: ConnectionOptions
        @Argument(help: "The operator's name (letters, digits, '.', '_', '-', '@').") var name: String
        @Option(help: "viewer (looks) or operator (looks and acts).") var role: String = "viewer"
        @Option(
            name: .customLong("tenant"), help: "A tenant whose data it sees and acts on, and nothing else's (repeat for several; none: every tenant)."
        )
        var tenants: [String] = []

        func run() async throws {
            guard let role = Operator.Role(rawValue: role) else { throw ValidationError("--role is viewer or operator") }
            let scope = try tenants.map { name in
                guard let tenant = TenantID(validating: name) else { throw ValidationError("--tenant: \(name) is not a tenant id") }
                return tenant
            }
            do {
                let created = try await Runtime.with(connections) {
                    try await OperatorStore(pool: $0.database).create(name: name, role: role, tenants: scope.isEmpty ? nil : scope)
                }
                let of = scope.isEmpty ? "every tenant" : scope.map(\.rawValue).joined(separator: ", ")
                print("operator \(created.operator.name) (\(role.rawValue), of \(of)) created; its token, shown this once:")
                print(created.token)
            } catch let error as StoreError where error.code == .alreadyExists {
                print("operator \(name) exists already")
                throw ExitCode(3)
            } catch let error as StoreError where error.code == .invalidArgument {
                throw ValidationError(error.message)
            }
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List operators.")
        @OptionGroup var connections: ConnectionOptions

        func run() async throws {
            let operators = try await Runtime.with(connections) { try await OperatorStore(pool: $0.database).list() }
            print("name\trole\tcreated\trevoked\ttenants")
            for entry in operators {
                let tenants = entry.tenants.map { $0.map(\.rawValue).joined(separator: ",") } ?? "*"
                print(
                    "\(entry.name)\t\(entry.role.rawValue)\t\(entry.createdAt.formatted(.iso8601))\t\(entry.revokedAt.map { $0.formatted(.iso8601) } ?? "-")\t\(tenants)"
                )
            }
        }
    }

    struct Revoke: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Revoke an operator and end its sessions; exits 1 when none is active.")
        @OptionGroup var connections: ConnectionOptions
        @Argument(help: "The operator's name.") var name: String

        func run() async throws {
            guard try await Runtime.with(connections, { try await OperatorStore(pool: $0.database).revoke(name: name) }) != nil else {
                print("no active operator \(name)")
                throw ExitCode(1)
            }
            print("operator \(name) revoked")
        }
    }
}
