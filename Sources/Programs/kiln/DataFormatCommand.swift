import ArgumentParser
import BuildInfo
import KilnCommandLine
import KilnQueue
import KilnStore

struct DataFormatCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "data-format",
        abstract: "The format of the namespace's data in Redis: print it, or record the one this release writes.",
        discussion: """
            Without --record, prints the format the namespace records, the formats this release reads and the one it \
            writes, and the build each live worker runs. --record 2 lists every job, idempotency record and cooldown \
            that an earlier release wrote in its owner's index (one walk of every shard), then records format 2: from \
            then on, erasing an identity reads only what it owns, and processes of releases that read format 1 only \
            refuse to start. Run it once every API node and worker runs this release. See docs/compatibility.md.
            """)

    @OptionGroup var connections: ConnectionOptions
    @Option(help: "The format to record: the one this release writes.") var record: Int?
    @Flag(help: "Record it even though live workers run another build (one of this release from another commit).") var force = false

    func validate() throws {
        if let record, record != DataFormat.written {
            throw ValidationError("--record: this release records format \(DataFormat.written) only")
        }
    }

    func run() async throws {
        try await Runtime.with(connections) { runtime in
            let index = runtime.namespace.ownedIndex
            let recorded = try await index.recordedFormat()
            let workers = try await runtime.namespace.fleet.workersAlive()
            guard let record else {
                print(
                    "recorded \(recorded); this release reads \(DataFormat.readable.lowerBound) to \(DataFormat.readable.upperBound) and writes \(DataFormat.written)"
                )
                for worker in workers { print("worker \(worker.id) on \(worker.host) runs \(worker.version)") }
                return
            }
            guard recorded < record else {
                print("format \(recorded) is recorded already")
                return
            }
            let others = workers.filter { $0.version != KilnBuild.fullVersion }
            guard others.isEmpty || force else {
                for worker in others { print("worker \(worker.id) on \(worker.host) runs \(worker.version), not \(KilnBuild.fullVersion)") }
                print("nothing recorded: upgrade those workers first (or pass --force for builds of this release)")
                throw ExitCode(4)
            }
            let records = IdentityRecords(pool: runtime.database, objects: runtime.objects)
            let backfill = try await index.complete { tenant, jobs in try await records.owners(of: jobs, tenant: tenant) }
            print(
                "listed \(backfill.jobs) jobs and \(backfill.pointers) idempotency records and cooldowns in their owners' indexes; "
                    + "deleted \(backfill.strayPointers) that pointed at no job; gave \(backfill.daysGivenExpiry) quota days' keys an expiry")
            print("recorded format \(DataFormat.ownersIndexed)")
        }
    }
}
