import Logging
import ProviderSimulator
import ServiceLifecycle
import Locking

/// The provider simulator in the benchmark's own process, on a free port, writing what it streams (and whose request
/// each answer answers) to a log: so a benchmark can time what Kiln makes of each piece, on one clock.
struct BenchSimulator {
    let port: Int

    /// Runs `body` with the simulator serving, then shuts it down as a server is shut down, whether `body` succeeded or
    /// not: it stops accepting and ends once its connections have. Cancelling its task instead made Hummingbird log the
    /// cancelled accept loop as an error at the end of a run that went well.
    static func serving<T>(deltaInterval: Duration, log: StreamWriteLog, _ body: (BenchSimulator) async throws -> T) async throws -> T {
        var configuration = SimulatorConfiguration()
        configuration.port = 0
        configuration.deltaInterval = deltaInterval
        configuration.onStreamWrite = { requestID, bytes in log.record(requestID, bytes) }
        configuration.onStreamStart = { requestID, body in log.recordStart(requestID, body) }
        let logger = Logger(label: "kiln.bench.simulator")
        let bound = Locked<Int?>(nil)
        let simulator = ProviderSimulator.application(configuration: configuration, logger: logger) { port in bound.withLock { $0 = port } }
        let group = ServiceGroup(services: [simulator], gracefulShutdownSignals: [], logger: logger)
        let task = Task { try await group.run() }
        func stop() async {
            await group.triggerGracefulShutdown()
            _ = await task.result
        }
        func boundPort() async throws -> Int {
            while true {
                if let port = bound.withLock({ $0 }) { return port }
                try await Task.sleep(for: .milliseconds(10))
            }
        }
        do {
            let value = try await body(BenchSimulator(port: try await boundPort()))
            await stop()
            return value
        } catch {
            await stop()
            throw error
        }
    }
}
