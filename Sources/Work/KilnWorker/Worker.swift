public import KilnCore
public import KilnQueue
public import Logging
public import ServiceLifecycle

/// `kiln worker`: claims the classes it serves, renews its leases, runs handlers, records results, and on
/// graceful shutdown stops claiming, lets running jobs finish within the grace period and hands the rest back.
public struct Worker: Service {
    let queue: any WorkSource
    let records: any WorkerRecords
    let recorder: Recorder
    let handlers: HandlerRegistry
    let configuration: WorkerConfiguration
    let logger: Logger
    let endedAttempts: EndedAttempts
    let heartbeats: Heartbeats?

    /// - Parameters:
    ///   - fleet: where the worker's heartbeat goes (``FleetRegistry``); nil publishes none.
    ///   - providerReadings: the readings of the providers' routes its heartbeat carries.
    public init(
        queue: any WorkSource, records: any WorkerRecords, handlers: HandlerRegistry,
        configuration: WorkerConfiguration, logger: Logger, fleet: (any HeartbeatSink)? = nil,
        providerReadings: @escaping @Sendable () async -> [ProviderReading] = { [] }
    ) {
        let endedAttempts = EndedAttempts()
        self.endedAttempts = endedAttempts
        self.heartbeats = fleet.map { sink in
            Heartbeats(sink: sink, providerReadings: providerReadings, ended: endedAttempts, configuration: configuration, logger: logger)
        }
        self.queue = queue
        self.records = records
        self.recorder = Recorder(queue: queue, records: records, logger: logger)
        self.handlers = handlers
        self.configuration = configuration
        self.logger = logger
    }

    public func run() async throws {
        let running = RunningJobs()
        let recordings = SignalledBuffer<FinishedJob>()
        let runners = configuration.concurrency.filter { $0.value > 0 }.map { jobClass, concurrency in
            ClassRunner(
                jobClass: jobClass, concurrency: concurrency, queue: queue, records: records, handlers: handlers, running: running,
                configuration: configuration, recordings: recordings, endedAttempts: endedAttempts, logger: logger)
        }
        FailureCounters.start(kinds: handlers.names)
        logger.info("worker started", metadata: ["worker.id": "\(configuration.id)", "worker.classes": "\(configuration.concurrency)"])
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await self.record(recordings) }
            group.addTask { try await self.keepLeases(running) }
            group.addTask { try await self.sweep() }
            group.addTask { try await self.drainOnShutdown(runners, running) }
            if let heartbeats { group.addTask { try await heartbeats.run(running) } }
            try await withThrowingTaskGroup(of: Void.self) { runnersGroup in
                for runner in runners { runnersGroup.addTask { try await runner.run() } }
                try await runnersGroup.waitForAll()
            }
            // Every runner settled its last attempt: flush the records, then stop the helpers (the drain's grace timer
            // among them).
            recordings.finish()
            group.cancelAll()
            try await recorder.record(recordings.takeAll())
        }
        // Once every helper has ended, the heartbeats' too: a beat still in flight when they were cancelled would
        // otherwise land after the leave and bring the worker back into the fleet.
        await heartbeats?.leave(running)
        logger.info("worker stopped", metadata: ["worker.id": "\(configuration.id)"])
    }

    /// On graceful shutdown: stops claiming, wakes the runners blocked on Redis so they see it, and once the grace
    /// period is over stops the attempts still running, which the runners then hand back.
    private func drainOnShutdown(_ runners: [ClassRunner], _ running: RunningJobs) async throws {
        try await gracefulShutdown()
        logger.info("worker draining", metadata: ["job.running": "\(running.count)"])
        for runner in runners { runner.drain() }
        for runner in runners { await runner.wakeUp() }
        try await Task.sleep(for: configuration.shutdownGrace)
        running.stopAll(because: .shutdown)
    }

    /// Writes what the runners settled, several batches at once (as many as the PostgreSQL pool has connections), so
    /// recording keeps up with claiming.
    private func record(_ recordings: SignalledBuffer<FinishedJob>) async throws {
        await withDiscardingTaskGroup { group in
            for await _ in recordings.signals {
                let finished = recordings.takeAll()
                for start in stride(from: 0, to: finished.count, by: configuration.recordBatch) {
                    let batch = Array(finished[start..<min(start + configuration.recordBatch, finished.count)])
                    group.addTask {
                        do {
                            try await recorder.record(batch)
                        } catch {
                            // The jobs stay in `unrecorded`; the sweep writes them later.
                            logger.error("recording failed", metadata: ["error": "\(error)"])
                        }
                    }
                }
            }
        }
    }

    private func keepLeases(_ running: RunningJobs) async throws {
        while !Task.isCancelled {
            try await Task.sleep(for: configuration.renewInterval)
            running.stopOverdue()
            do {
                let (lost, cancelRequested) = try await queue.renew(running.leases)
                // Only the attempts still running count: one that ended while the renewal was on its way has its
                // settlement fenced off instead, and is counted there.
                let stopped = lost.filter { running.stop($0, because: .leaseLost) }
                for id in cancelRequested { running.stop(id, because: .cancelRequested) }
                if !stopped.isEmpty { logger.warning("leases lost", metadata: ["job.count": "\(stopped.count)"]) }
            } catch {
                logger.error("lease renewal failed", metadata: ["error": "\(error)"])
            }
        }
    }

    private func sweep() async throws {
        while !Task.isCancelled {
            try await Task.sleep(for: configuration.sweepInterval)
            do {
                try await recorder.sweep(olderThan: configuration.sweepInterval, limit: configuration.recordBatch)
            } catch {
                logger.error("sweep failed", metadata: ["error": "\(error)"])
            }
        }
    }
}
