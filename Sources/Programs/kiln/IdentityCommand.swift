import ArgumentParser
import KilnCommandLine
import KilnCore
import KilnPrivacy
import KilnStore

struct IdentityCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "identity", abstract: "End users' data.", subcommands: [Erase.self, MigrateNamespaces.self])

    struct Erase: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Erase everything Kiln holds of an identity: jobs, inputs, results, events, artifacts, uploads, quota records.",
            discussion: """
                Running jobs of the identity are told to stop; the command repeats the erasure until they have ended. \
                Exits 0 once nothing is left, 4 when jobs were still running at the end of --wait (run it again). \
                See docs/privacy.md.
                """)

        @OptionGroup var connections: ConnectionOptions
        @Option(help: "The identity's tenant.") var tenant: String
        @Argument(help: "The identity, as Kiln names it (ot:…, at:…, d:…, a JWT's sub or u:<sub>, or as the tenant's server asserts it).")
        var identity: String
        @Option(help: "Seconds to wait for the identity's running jobs to stop.") var wait = 30

        func run() async throws {
            guard let tenantID = TenantID(validating: tenant) else { throw ValidationError("--tenant must be 1–63 of a-z, 0-9 and -") }
            guard let subject = Identity(validating: identity) else {
                throw ValidationError("not an identity: 1–128 printable characters without spaces")
            }
            guard wait >= 0 else { throw ValidationError("--wait must not be negative") }
            let erasure = try await Runtime.with(connections) { runtime in
                let eraser = IdentityEraser(namespace: runtime.namespace, records: IdentityRecords(pool: runtime.database, objects: runtime.objects))
                return try await eraser.eraseCompletely(identity: subject, tenant: tenantID, attempts: wait * 4 + 1, pause: .milliseconds(250))
            }
            let records = erasure.records
            let counts = [
                "jobs \(records.jobs.count)", "artifacts \(records.artifacts)", "uploads \(records.uploads)", "shares \(records.shares)",
                "campaigns \(records.campaigns)",
            ]
            print((counts + ["objects \(records.objects)", "redis keys \(erasure.redisKeys)"]).joined(separator: ", "))
            guard erasure.isComplete else {
                print("\(erasure.pendingJobs.count) jobs still running: run the command again")
                throw ExitCode(4)
            }
            print("erased")
        }
    }

    struct MigrateNamespaces: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "migrate-namespaces",
            abstract: "Rename the stored identities of JWTs whose sub starts with a reserved prefix (ot:, at:, d:, u:) to u:<sub>.",
            discussion: """
                Run once on upgrading to namespaced identities, after `kiln migrate`; it can run again at any time and \
                renames only what is left. Only tenants whose policy accepts jwt are looked at. Renamed identities' jobs \
                that were running are recorded under the old name: the command repeats until they are renamed too. \
                Exits 0 once nothing is left, 4 when jobs were still running at the end of --wait (run it again). \
                See docs/identity.md.
                """)

        @OptionGroup var connections: ConnectionOptions
        @OptionGroup var policyOptions: PolicyOptions
        @Flag(help: "Print what would be renamed, and rename nothing.") var dryRun = false
        @Option(help: "Seconds to wait for renamed identities' running jobs to be recorded.") var wait = 30

        func run() async throws {
            guard wait >= 0 else { throw ValidationError("--wait must not be negative") }
            let policies = try policyOptions.load()
            let report = try await Runtime.with(connections) { runtime in
                let migration = NamespaceMigration(
                    namespace: runtime.namespace, records: IdentityRecords(pool: runtime.database, objects: runtime.objects))
                if dryRun { return NamespaceMigration.Report(plan: try await migration.plan(policies: policies)) }
                return try await migration.migrate(policies: policies, attempts: wait * 4 + 1, pause: .milliseconds(250))
            }
            let plan = report.plan
            for rename in plan.renames { print("\(rename.tenant): \(rename.from) -> \(rename.to)") }
            for left in plan.ambiguous {
                print("\(left.tenant): \(left.identity) left: the tenant accepts that prefix's mode too, so it may not be a JWT's")
            }
            for left in plan.tooLong { print("\(left.tenant): \(left.identity) left: its new name would be over 128 characters") }
            guard !dryRun else {
                print("dry run: \(plan.renames.count) identities would be renamed")
                return
            }
            print("renamed \(plan.renames.count) identities: rows \(report.rows), redis jobs \(report.jobs)")
            guard report.pending.isEmpty else {
                print("\(report.pending.count) jobs still running: run the command again")
                throw ExitCode(4)
            }
        }
    }
}
