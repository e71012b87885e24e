import ArgumentParser
import KilnCommandLine
import KilnCore
import KilnQueue
import KilnStore

struct DeadCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "dead", abstract: "The dead-letter set: list, inspect, replay and purge.",
        subcommands: [List.self, Replay.self, Purge.self])

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Dead-lettered jobs, most recent first.")
        @OptionGroup var connections: ConnectionOptions
        @Option(help: "How many.") var limit = 100

        func run() async throws {
            let jobs = try await Runtime.with(connections) { try await $0.namespace.admin.deadLetters(limit: limit) }
            print("id\ttenant\tkind\tstate\ttries\terror")
            for job in jobs {
                print(
                    "\(job.id)\t\(job.tenant)\t\(job.kind)\t\(job.state.rawValue)\t\(job.tries)/\(job.maxAttempts)\t\(job.errorCode ?? "-"): \(job.errorMessage ?? "")"
                )
            }
        }
    }

    struct Replay: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Send dead-lettered jobs back to their queues with fresh attempts.")
        @OptionGroup var connections: ConnectionOptions
        @Argument(help: "Job ids.") var ids: [String]

        func run() async throws {
            let jobIDs = try ids.map { text in
                guard let id = JobID(validating: text) else { throw ValidationError("\(text) is not a job id") }
                return id
            }
            let replayed = try await Runtime.with(connections) { runtime in
                var replayed: [JobID] = []
                for id in jobIDs where try await runtime.namespace.admin.replay(id) { replayed.append(id) }
                return replayed
            }
            for id in jobIDs { print(replayed.contains(id) ? "replayed \(id)" : "not dead-lettered: \(id)") }
            if replayed.count < jobIDs.count { throw ExitCode(1) }
        }
    }

    struct Purge: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Delete dead-lettered jobs from Redis (PostgreSQL keeps their record).")
        @OptionGroup var connections: ConnectionOptions
        @Argument(help: "A job id; none purges every dead-lettered job.") var id: String?

        func run() async throws {
            let jobID = try id.map { text in
                guard let id = JobID(validating: text) else { throw ValidationError("\(text) is not a job id") }
                return id
            }
            let purged = try await Runtime.with(connections) { runtime in
                let purged = try await runtime.namespace.admin.purgeDead(jobID)
                // Their records stay, out of the console's list of dead letters, which could no longer replay them.
                try await JobSearch(pool: runtime.database).discard(jobID.map { [$0] })
                return purged
            }
            print("purged \(purged)")
        }
    }
}
