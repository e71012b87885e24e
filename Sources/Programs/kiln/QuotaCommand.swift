import ArgumentParser
import Foundation
import KilnCommandLine
import KilnAdmission
import KilnCore
import KilnPolicy
import KilnQueue
import KilnStore
import KilnWorker

struct QuotaCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "quota", abstract: "Quota counters: check them against the ledger and repair them.", subcommands: [Reconcile.self])

    struct Reconcile: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Compare a day's quota counters in Redis with the ledger in PostgreSQL; --repair rebuilds those Redis lost.")
        @OptionGroup var connections: ConnectionOptions
        @OptionGroup var policyOptions: PolicyOptions
        @Option(help: "Tenant id.") var tenant: String
        @Option(help: "Quota day as yyyyMMdd (default: today in the tenant's reset time zone).") var day: String?
        @Flag(help: "Raise counters that fell behind the ledger (never lowers one).") var repair = false

        func run() async throws {
            guard let tenantID = TenantID(validating: tenant) else { throw ValidationError("\(tenant) is not a tenant id") }
            let quotaDay: String
            if let day {
                guard day.count == 8, day.allSatisfy(\.isNumber) else { throw ValidationError("--day must look like 20261122") }
                quotaDay = day
            } else {
                guard let policy = try policyOptions.load()[tenantID] else {
                    throw ValidationError("\(tenant) has no policy in \(policyOptions.policies): give --day")
                }
                quotaDay = policy.dayWindow(containing: Date()).label
            }
            let drifts = try await Runtime.with(connections) { runtime in
                try await QuotaReconciler(quota: runtime.namespace.quota, ledger: QuotaLedger(pool: runtime.database))
                    .reconcile(tenant: tenantID, day: quotaDay, repair: repair)
            }
            print("subject\tcounter\tredis\tledger")
            for drift in drifts { print("\(drift.subject)\t\(drift.counter)\t\(drift.redis)\t\(drift.ledger)") }
            print(
                drifts.isEmpty
                    ? "no drift on \(quotaDay)"
                    : "\(drifts.count) counter(s) differ on \(quotaDay)\(repair ? "; those behind the ledger were raised" : "")")
        }
    }
}
