import ArgumentParser
import KilnCommandLine
import KilnCore
import KilnPrivacy
import KilnStore

struct IdentityCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "identity", abstract: "End users' data.", subcommands: [Erase.self])

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
        @Argument(help: "The identity, as Kiln names it (ot:…, at:…, d:…, a JWT's sub, or as the tenant's server asserts it).")
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
}
