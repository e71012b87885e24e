import KilnCommandLine
import KilnCore
import ArgumentParser
import KilnQueue

struct QueueCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "queue", abstract: "Queue statistics.", subcommands: [Stats.self])

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
}
