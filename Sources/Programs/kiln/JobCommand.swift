import Foundation
import ArgumentParser
import KilnCommandLine
import KilnCore
import KilnQueue
import KilnStore

struct JobCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "job", abstract: "Inspect jobs.", subcommands: [Show.self])

    struct Show: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "One job as Redis and PostgreSQL hold it.")
        @OptionGroup var connections: ConnectionOptions
        @Argument(help: "The job id.") var id: String
        @Option(help: "The job's tenant, to find its record once its Redis copy has expired.") var tenant: String?

        func run() async throws {
            guard let jobID = JobID(validating: id) else { throw ValidationError("not a job id") }
            try await Runtime.with(connections) { runtime in
                let live = try await runtime.namespace.queue.snapshots([jobID]).first ?? nil
                if let job = live {
                    print(
                        "redis: \(job.state.rawValue) tenant=\(job.tenant) identity=\(job.identity) kind=\(job.kind) attempt=\(job.attempt) tries=\(job.tries)/\(job.maxAttempts)"
                    )
                    print("  input: \(job.input)")
                    if let result = job.result { print("  result: \(result)") }
                    if let code = job.errorCode { print("  error: \(code): \(job.errorMessage ?? "")") }
                } else {
                    print("redis: (gone)")
                }
                if let tenant = live?.tenant ?? tenant.flatMap(TenantID.init(validating:)),
                    let record = try await JobStore(pool: runtime.database).find(id: jobID, tenant: tenant)
                {
                    print(
                        "postgres: \(record.state.rawValue) tenant=\(record.tenant) attempt=\(record.attempt) finished=\(record.finishedAt.map { $0.formatted(.iso8601) } ?? "-")"
                    )
                } else {
                    print("postgres: (no record found; pass --tenant once the Redis copy has expired)")
                }
            }
        }
    }
}
