public import KilnCore
import Foundation

/// What a worker serves and how it paces itself.
public struct WorkerConfiguration: Sendable {
    /// Names this process in job hashes and logs.
    public var id: String = "\(ProcessInfo.processInfo.hostName)-\(ProcessInfo.processInfo.processIdentifier)"
    /// The classes served, with how many jobs of each run at once.
    public var concurrency: [JobClass: Int] = [.io: 64, .cpu: 2]
    /// The most jobs one claim takes.
    public var claimBatch: Int = 256
    /// How often leases are renewed, in one call for all running jobs; also how soon a cancellation is noticed.
    public var renewInterval: Duration = .milliseconds(500)
    /// On SIGTERM, how long running jobs may take to finish before they are handed back.
    public var shutdownGrace: Duration = .seconds(10)
    /// The longest an idle worker blocks before it looks again (delayed jobs and leases wake it sooner).
    public var maxIdleWait: Duration = .seconds(30)
    /// How often finished jobs that no worker recorded (their worker died) are written to PostgreSQL.
    public var sweepInterval: Duration = .seconds(2)
    /// How often the worker publishes its heartbeat (``FleetRegistry``); it vanishes from the fleet after three missed.
    public var heartbeatInterval: Duration = .seconds(2)
    /// The Kiln release this worker runs, as its heartbeat shows it.
    public var version: String = "dev"
    /// The most records written to PostgreSQL in one statement.
    public var recordBatch: Int = 1000

    public init() {}
}
