import ArgumentParser
import Foundation
import KilnCommandLine
import KilnCore
import KilnStore
import KilnWorker
import PostgresClient

/// `kiln-dev bench recorder`: the workers' batched writes of finished jobs to PostgreSQL (a `jobs` row and a quota
/// ledger row each, through ``StoreRecords``, what every worker's recorder calls), from `k` writers at once as the
/// workers of `k` Redis shards would send them, each with its own connections as a worker process has. Prints job
/// records and rows written per second and PostgreSQL's CPU per job record, into a schema of its own that it drops
/// afterwards (docs/postgres-at-scale.md).
struct RecorderBenchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "recorder", abstract: "Batched job records into PostgreSQL from k writers at once; prints rows/s and CPU per row.")

    @OptionGroup var connections: ConnectionOptions
    @Option(help: "Job records each run writes, over all its writers.") var records = 200_000
    @Option(help: "Concurrent writers (shards' workers), one run each.") var writers = [1, 3, 6]
    @Option(help: "Records per batch: a worker's recordBatch.") var batch = 1000
    @Option(help: "Batches each writer has in flight at once, as a worker records several (its pool's connections).")
    var inFlight = 2
    @Option(help: "The migrations directory (env KILN_MIGRATIONS_DIR).")
    var migrations = ProcessInfo.processInfo.environment["KILN_MIGRATIONS_DIR"] ?? "migrations"
    @Option(help: "Apply the migrations only up to this version: 8 measures the tables before they were partitioned.")
    var migrateTo: Int?

    func run() async throws {
        guard records > 0, batch > 0, inFlight > 0, !writers.isEmpty, writers.allSatisfy({ $0 > 0 }) else {
            throw ValidationError("--records, --batch, --in-flight and each --writers must be 1 or more")
        }
        var options = connections
        options.schema = "bench_recorder_\(UUID().uuidString.prefix(8).lowercased())"
        try await Runtime.with(options) { runtime in
            try await migrate(runtime.database)
            let tenant = try await TenantStore(pool: runtime.database).create(
                id: try Self.id("bench"), name: "Benchmarks", weight: 1, runningCap: 1, diagnostics: true)
            do {
                for count in writers {
                    let figures = try await measure(writers: count, tenant: tenant.id, runtime: runtime)
                    print(
                        String(
                            format:
                                "%d writer%@ (batches of %d, %d in flight each): %.0f job records/s = %.0f rows/s (jobs + quota ledger); postgresql cpu %.1f µs a record, %.2f cores; wal %.0f bytes a record",
                            count, count == 1 ? "" : "s", batch, inFlight, figures.records, figures.records * 2, figures.cpuMicroseconds,
                            figures.cores, figures.walBytes))
                    _ = try await runtime.database.execute("TRUNCATE jobs, quota_ledger")
                }
            } catch {
                _ = try? await runtime.database.execute("DROP SCHEMA \(PostgresConnection.quoteIdentifier(options.schema)) CASCADE")
                throw error
            }
            _ = try await runtime.database.execute("DROP SCHEMA \(PostgresConnection.quoteIdentifier(options.schema)) CASCADE")
        }
    }

    /// Applies ``migrations``, or those up to ``migrateTo`` (copied into a directory of their own).
    private func migrate(_ pool: PostgresPool) async throws {
        let source = URL(fileURLWithPath: migrations)
        guard let migrateTo else {
            _ = try await Migrator(pool: pool, directory: source).migrate()
            return
        }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("kiln-bench-migrations-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        for name in try FileManager.default.contentsOfDirectory(atPath: source.path) where Int(name.prefix(4)).map({ $0 <= migrateTo }) == true {
            try FileManager.default.copyItem(at: source.appendingPathComponent(name), to: directory.appendingPathComponent(name))
        }
        _ = try await Migrator(pool: pool, directory: directory).migrate()
    }

    /// Writes ``records`` records from `writers` writers, each with a pool of its own; returns records per second and
    /// PostgreSQL's CPU.
    private func measure(writers: Int, tenant: TenantID, runtime: Runtime) async throws -> Figures {
        var configuration = runtime.database.configuration
        configuration.leasedConnections = inFlight
        let pools = try (0..<writers).map { _ in try PostgresPool(configuration: configuration) }
        let identities = try (0..<64).map { try Self.identity("user-\($0)") }
        let perWriter = records / writers
        // Records made before the clock starts: the figure is PostgreSQL's, not the benchmark's.
        let batches = (0..<writers).map { _ in
            stride(from: 0, to: perWriter, by: batch).map { start in
                (start..<min(start + batch, perWriter)).map { index in Self.record(tenant: tenant, identity: identities[index % identities.count]) }
            }
        }
        let walBefore = try await walPosition(runtime.database)
        let cpuBefore = ProcessCPU.seconds(command: "postgres")
        let started = ContinuousClock.now
        try await withThrowingTaskGroup(of: Void.self) { group in
            for (pool, writerBatches) in zip(pools, batches) {
                let store = StoreRecords(
                    jobs: JobStore(pool: pool), ledger: QuotaLedger(pool: pool), artifacts: ArtifactStore(pool: pool, objects: runtime.objects))
                let lanes = inFlight
                for lane in 0..<lanes {
                    group.addTask {
                        for index in stride(from: lane, to: writerBatches.count, by: lanes) {
                            let jobs = writerBatches[index]
                            try await store.record(jobs.map(\.job), charges: jobs.map(\.charge))
                        }
                    }
                }
            }
            try await group.waitForAll()
        }
        let seconds = (ContinuousClock.now - started).seconds
        let cpu = ProcessCPU.seconds(command: "postgres") - cpuBefore
        for pool in pools { try await pool.close() }
        let wal =
            try await runtime.database.query("SELECT pg_wal_lsn_diff(pg_current_wal_lsn(), $1::pg_lsn)::float8 AS bytes", [walBefore])
            .first?.decode("bytes", as: Double.self) ?? 0
        let written = Double(perWriter * writers)
        return Figures(records: written / seconds, cpuMicroseconds: cpu / written * 1_000_000, cores: cpu / seconds, walBytes: wal / written)
    }

    /// What one run measured.
    private struct Figures {
        /// Job records written per second.
        let records: Double
        /// PostgreSQL's CPU per job record, every backend and background process.
        let cpuMicroseconds: Double
        /// PostgreSQL's CPU over the run, in cores.
        let cores: Double
        /// Write-ahead log per job record: what the disk and every replica take.
        let walBytes: Double
    }

    private func walPosition(_ pool: PostgresPool) async throws -> String {
        try await pool.query("SELECT pg_current_wal_lsn()::text AS lsn").first?.decode("lsn", as: String.self) ?? "0/0"
    }

    /// A finished, metered job as a worker records it: a story continuation's input and result sizes.
    private static func record(tenant: TenantID, identity: Identity) -> (job: JobRecord, charge: QuotaLedgerEntry) {
        let id = JobID(shard: 0)
        let now = Date()
        let input = #"{"story":"\#(String(repeating: "Once upon a time ", count: 12))","words":120}"#
        let result = #"{"candidates":["\#(String(repeating: "and then the fox ", count: 30))"]}"#
        let job = JobRecord(
            id: id, tenant: tenant, identity: identity, kind: "text.continue", priority: .normal, state: .succeeded, attempt: 1, maxAttempts: 3,
            input: input, result: result, createdAt: now, startedAt: now, finishedAt: now)
        let charge = QuotaLedgerEntry(
            job: id, tenant: tenant, subject: identity.rawValue, day: "20260101", quotaClass: "text", units: 1, outcome: .committed)
        return (job, charge)
    }

    private static func id(_ text: String) throws -> TenantID {
        guard let id = TenantID(validating: text) else { throw ValidationError("\(text) is not a tenant id") }
        return id
    }

    private static func identity(_ text: String) throws -> Identity {
        guard let identity = Identity(validating: text) else { throw ValidationError("\(text) is not an identity") }
        return identity
    }
}
