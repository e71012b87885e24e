import Logging
import ProviderSimulator
import ServiceLifecycle
import Locking

/// The provider simulator in the benchmark's own process, on a free port, writing what it streams (and whose request
/// each answer answers) to a log: so a benchmark can time what Kiln makes of each piece, on one clock.
struct BenchSimulator {
    let port: Int
    private let task: Task<Void, any Error>

    static func start(deltaInterval: Duration, log: StreamWriteLog) async throws -> BenchSimulator {
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
        while true {
            if let port = bound.withLock({ $0 }) { return BenchSimulator(port: port, task: task) }
            try await Task.sleep(for: .milliseconds(10))
        }
    }

    func stop() {
        task.cancel()
    }
}
