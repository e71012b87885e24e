import ArgumentParser
import BuildInfo

/// The tools that must not ship in the production image. The benchmarks and load tests start API nodes and workers
/// from the `kiln` program built beside this one.
@main
struct KilnDev: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "kiln-dev",
        abstract: "Kiln's development tools: the provider simulator, the benchmarks, the load tests and MCP tokens.",
        version: KilnBuild.versionLine,
        subcommands: [SimulatorCommand.self, BenchCommand.self, LoadTestCommand.self, MCPCommand.self])
}
