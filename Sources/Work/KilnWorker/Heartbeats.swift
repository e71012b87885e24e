import Foundation
import KilnCore
import KilnQueue
import Logging

/// Publishes this worker's heartbeat every ``WorkerConfiguration/heartbeatInterval``: what it serves and runs, its
/// providers' readings (also set as gauges on its `/metrics`), and the attempts it settled since the last beat.
struct Heartbeats: Sendable {
    let sink: any HeartbeatSink
    let providerReadings: @Sendable () async -> [ProviderReading]
    let ended: EndedAttempts
    let configuration: WorkerConfiguration
    let logger: Logger
    /// When the process started, by its own clock.
    let startedAtMilliseconds = Int64(Date().timeIntervalSince1970 * 1000)

    /// A beat missed three times in a row makes the worker vanish from the fleet.
    var expiresAfter: Duration { configuration.heartbeatInterval * 3 }

    func run(_ running: RunningJobs) async throws {
        while !Task.isCancelled {
            await beat(running)
            try await Task.sleep(for: configuration.heartbeatInterval)
        }
    }

    /// Sends what was settled since the last beat, then leaves the fleet: for a worker that stops gracefully.
    func leave(_ running: RunningJobs) async {
        await beat(running)
        do {
            try await sink.leave(configuration.id)
        } catch {
            logger.warning("leaving the fleet failed", metadata: ["error": "\(error)"])
        }
    }

    private func beat(_ running: RunningJobs) async {
        let providers = await providerReadings()
        ProviderGauges.record(providers)
        let counted = ended.take()
        let heartbeat = WorkerHeartbeat(
            id: configuration.id, host: ProcessInfo.processInfo.hostName, pid: ProcessInfo.processInfo.processIdentifier,
            classes: configuration.concurrency.filter { $0.value > 0 }, version: configuration.version,
            startedAtMilliseconds: startedAtMilliseconds, lanes: running.lanes, providers: providers)
        do {
            try await sink.beat(heartbeat, ended: counted, expiresAfter: expiresAfter)
        } catch {
            ended.giveBack(counted)
            logger.warning("heartbeat failed", metadata: ["error": "\(error)"])
        }
    }
}
