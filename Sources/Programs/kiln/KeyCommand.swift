import Foundation
import ArgumentParser
import KilnCommandLine
import KilnCore
import KilnStore

struct KeyCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "key", abstract: "Create, list and revoke tenants' API keys.", subcommands: [Create.self, List.self, Revoke.self])

    struct Create: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Create an API key; it is shown once, only its hash is kept.")
        @OptionGroup var connections: ConnectionOptions
        @Argument(help: "The tenant.") var tenant: String
        @Flag(help: "Print only the key.") var raw = false

        func run() async throws {
            guard let tenantID = TenantID(validating: tenant) else { throw ValidationError("not a tenant id") }
            let (record, key) = try await Runtime.with(connections) { try await APIKeyStore(pool: $0.database).create(tenant: tenantID) }
            if raw {
                print(key)
            } else {
                print("API key for \(tenant) (shown once; store it now):\n\(key)\nprefix: \(record.prefix)")
            }
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List a tenant's keys by prefix.")
        @OptionGroup var connections: ConnectionOptions
        @Argument(help: "The tenant.") var tenant: String

        func run() async throws {
            guard let tenantID = TenantID(validating: tenant) else { throw ValidationError("not a tenant id") }
            let keys = try await Runtime.with(connections) { try await APIKeyStore(pool: $0.database).list(tenant: tenantID) }
            print("prefix\tcreated_at\trevoked_at")
            for key in keys {
                print("\(key.prefix)\t\(key.createdAt.formatted(.iso8601))\t\(key.revokedAt.map { $0.formatted(.iso8601) } ?? "-")")
            }
        }
    }

    struct Revoke: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Revoke a key by its prefix; requests with it get 401.")
        @OptionGroup var connections: ConnectionOptions
        @Argument(help: "The key's prefix, as `kiln key list` shows it.") var prefix: String

        func run() async throws {
            let revoked = try await Runtime.with(connections) { try await APIKeyStore(pool: $0.database).revoke(prefix) }
            guard revoked != nil else {
                print("no active key with prefix \(prefix)")
                throw ExitCode(1)
            }
            print("revoked \(prefix)")
        }
    }
}
