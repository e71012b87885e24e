import ArgumentParser
import BuildInfo

@main
struct Kiln: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "kiln",
        abstract: "Kiln: the job queue and worker fleet behind the apps.",
        version: KilnBuild.versionLine,
        subcommands: [
            APICommand.self, WorkerCommand.self, MigrateCommand.self, TenantCommand.self, KeyCommand.self,
            QueueCommand.self, DeadCommand.self, JobCommand.self, QuotaCommand.self, AbuseCommand.self, WebhookCommand.self,
            IdentityCommand.self, PurgeCommand.self, OperatorCommand.self, ConsoleCommand.self, PoliciesCommand.self, DataFormatCommand.self,
        ])
}
