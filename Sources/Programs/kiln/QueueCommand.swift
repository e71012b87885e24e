import KilnCommandLine
import KilnCore
import ArgumentParser
import KilnQueue

struct QueueCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "queue", abstract: "Queue statistics; pausing and resuming a tenant or a class.",
        subcommands: [Stats.self, Pause.self, Resume.self, Paused.self])

    struct Stats: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Depth by tenant, class and priority with the oldest wait; in flight, delayed, dead, unrecorded.")
        @OptionGroup var connections: ConnectionOptions

        func run() async throws {
            let stats = try await Runtime.with(connections) { try await $0.namespace.admin.stats() }
            print("tenant\tclass\tpriority\tready\toldest_wait_ms")
            for depth in stats.ready {
                print(
                    "\(depth.tenant)\t\(depth.jobClass.rawValue)\t\(depth.priority.rawValue)\t\(depth.count)\t\(depth.oldestWaitMilliseconds.map(String.init) ?? "-")"
                )
            }
            print("in_flight \(stats.inFlight)\ndelayed \(stats.delayed)\ndead \(stats.dead)\nunrecorded \(stats.unrecorded)")
        }
    }

    /// `--tenant T` or `--class C`, exactly one.
    struct LaneOptions: ParsableArguments {
        @Option(help: "A tenant's id.") var tenant: String?
        @Option(name: .customLong("class"), help: "A job class: io or cpu.") var jobClass: String?

        func validate() throws { _ = try lane() }

        func lane() throws -> QueueLane {
            switch (tenant, jobClass) {
            case (let tenant?, nil):
                guard let id = TenantID(validating: tenant) else { throw ValidationError("--tenant: \(tenant) is not a tenant id") }
                return .tenant(id)
            case (nil, let name?):
                guard let jobClass = JobClass(rawValue: name) else {
                    throw ValidationError("--class: \(name) is not one of \(JobClass.allCases.map(\.rawValue).joined(separator: ", "))")
                }
                return .jobClass(jobClass)
            default:
                throw ValidationError("give either --tenant or --class")
            }
        }
    }

    struct Pause: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Stop claiming a tenant's or a class's jobs; submissions are still admitted and wait until it is resumed.")
        @OptionGroup var connections: ConnectionOptions
        @OptionGroup var lane: LaneOptions

        func run() async throws {
            let lane = try lane.lane()
            let paused = try await Runtime.with(connections) { try await $0.namespace.admin.pause(lane) }
            print(paused ? "paused \(lane.name)" : "\(lane.name) was already paused")
        }
    }

    struct Resume: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Claim a paused tenant's or class's jobs again, waking the workers.")
        @OptionGroup var connections: ConnectionOptions
        @OptionGroup var lane: LaneOptions

        func run() async throws {
            let lane = try lane.lane()
            let resumed = try await Runtime.with(connections) { try await $0.namespace.admin.resume(lane) }
            print(resumed ? "resumed \(lane.name)" : "\(lane.name) was not paused")
        }
    }

    struct Paused: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "The tenants and classes paused now.")
        @OptionGroup var connections: ConnectionOptions

        func run() async throws {
            let paused = try await Runtime.with(connections) { try await $0.namespace.admin.paused() }
            for lane in paused.map(\.name).sorted() { print(lane) }
        }
    }
}

extension QueueLane {
    /// `tenant acme`, `class io`.
    fileprivate var name: String {
        switch self {
        case .tenant(let tenant): "tenant \(tenant.rawValue)"
        case .jobClass(let jobClass): "class \(jobClass.rawValue)"
        }
    }
}
