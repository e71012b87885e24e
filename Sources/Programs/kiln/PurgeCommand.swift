import ArgumentParser
import Foundation
import KilnCommandLine
import KilnCore
import KilnPrivacy
import KilnQueue
import KilnStore

struct PurgeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "purge",
        abstract: "Delete the inputs, results, artifacts, uploads, records and dead letters past their tenant's retention.",
        discussion: """
            Retention periods come from each tenant's `retention` section in the policy file (30 days of each when it \
            has none). Idempotent and done in bounded batches: schedule it (hourly, say) and run it again at will. \
            Run for every tenant, it also creates the partitions of the coming week and drops whole days past every \
            tenant's records_days (docs/postgres-at-scale.md). See docs/privacy.md.
            """)

    @OptionGroup var connections: ConnectionOptions
    @OptionGroup var policyOptions: PolicyOptions
    @Option(help: "Only this tenant (default: every tenant).") var tenant: String?
    @Option(help: "Rows or objects per batch.") var batch = 500

    func run() async throws {
        let policies = try policyOptions.load()
        guard batch >= 1 else { throw ValidationError("--batch must be at least 1") }
        let only = try tenant.map { name in
            guard let id = TenantID(validating: name) else { throw ValidationError("--tenant must be 1–63 of a-z, 0-9 and -") }
            return id
        }
        let (report, partitions) = try await Runtime.with(connections) { runtime in
            var tenants = only.map { [$0] } ?? []
            if only == nil { tenants = try await TenantStore(pool: runtime.database).list().map(\.id) }
            let purger = RetentionPurger(
                admin: runtime.namespace.admin, records: RecordPurge(pool: runtime.database, objects: runtime.objects), policies: policies,
                batchSize: batch, logger: Bootstrap.logger("kiln.purge"))
            let now = Date()
            let report = try await purger.purge(tenants: tenants, now: now)
            // Which days may go depends on every tenant's retention: only a run over all of them decides it.
            let partitions = only == nil ? try await purger.maintainPartitions(of: tenants, now: now) : nil
            return (report, partitions)
        }
        print("tenant\tinputs\tresults\tartifacts\tuploads\tshares\tcampaigns\tdead_letters\trecords")
        for counts in report {
            print(
                "\(counts.tenant)\t\(counts.inputs)\t\(counts.results)\t\(counts.artifacts)\t\(counts.uploads)\t\(counts.shares)\t\(counts.campaigns)\t\(counts.deadLetters)\t\(counts.records)"
            )
        }
        if let partitions {
            print("partitions created: \(partitions.created); days dropped: \(partitions.dropped.map(\.description).joined(separator: " "))")
        }
    }
}
