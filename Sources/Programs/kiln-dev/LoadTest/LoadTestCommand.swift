import ArgumentParser

/// `kiln-dev loadtest`: load generators that drive a real API from several processes and audit what it decided.
struct LoadTestCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "loadtest", abstract: "Load tests that drive the real API and audit every decision.",
        subcommands: [QuotaLoadCommand.self, QuotaGeneratorCommand.self])
}
