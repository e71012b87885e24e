import KilnQueue
public import Logging
import PostgresClient
import ServiceFailures

extension Runtime {
    /// Waits until Redis (its scripts loaded) and then PostgreSQL answer, trying again after a wait that doubles from
    /// 50 ms to 5 s and logging each service it waits for, so a process started before them (a host's boot, a
    /// deploy of the whole stack) comes up with them instead of exiting. A failure that is not an outage (a wrong
    /// password, a missing database, a broken script) stops the command at once.
    public func waitForServices(logger: Logger) async throws {
        try await waitFor(.redis, logger: logger) { try await namespace.prepare() }
        try await waitFor(.postgres, logger: logger) { _ = try await database.execute("SELECT 1") }
    }

    private func waitFor(_ service: BackingService, logger: Logger, _ reach: () async throws -> Void) async throws {
        let backoff = ReconnectBackoff(maximum: .seconds(5))
        var failures = 0
        while true {
            do {
                try await reach()
                if failures > 0 { logger.info("backing service reached", metadata: ["service": "\(service.rawValue)"]) }
                return
            } catch let error as any BackingServiceError where error.isUnavailable {
                failures += 1
                let delay = backoff.delay(afterFailures: failures)
                logger.warning(
                    "waiting for backing service",
                    metadata: ["service": "\(service.rawValue)", "error": "\(error)", "attempt": "\(failures)", "retry.in": "\(delay)"])
                try await Task.sleep(for: delay)
            }
        }
    }
}
