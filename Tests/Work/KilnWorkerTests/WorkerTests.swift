import KilnCore
import KilnHandlers
import KilnJSON
import KilnQueue
import KilnWorker
import WorkerFakes
import Logging
import ServiceLifecycle
import Testing

/// The worker's claim, run and settle loop over an in-memory queue and records: what it settles and records for each
/// way an attempt can end, without Redis or PostgreSQL.
@Suite struct WorkerTests {
    @Test func everyClaimedJobRunsOnceAndIsSettledAndRecordedWithItsResult() async throws {
        let source = MemoryWorkSource()
        let records = MemoryRecords()
        let ids = try (0..<20).map { try source.add(kind: "diag.echo", input: #"{"n":\#($0)}"#) }
        try await Self.withWorker(source, records: records) {
            try await Self.eventually("every job recorded") { source.recorded.count == ids.count }
        }
        #expect(source.settlements.map(\.job).sorted { $0.rawValue < $1.rawValue } == ids.sorted { $0.rawValue < $1.rawValue })
        for settlement in source.settlements {
            let result = try #require(settlement.result.flatMap(JSONValue.parse))
            #expect(result["echo"]?["n"]?.intValue != nil)
        }
        #expect(Set(records.jobs.map(\.id)) == Set(ids))
        #expect(records.jobs.allSatisfy { $0.state == .succeeded })
    }

    @Test func aRetryableFailureComesBackAfterADelayWithinItsKindsPolicy() async throws {
        let source = MemoryWorkSource()
        let id = try source.add(kind: "diag.fail", input: #"{"times":1}"#)
        try await Self.withWorker(source) {
            try await Self.eventually("the attempt settled") { !source.settlements.isEmpty }
        }
        let settlement = try #require(source.settlements.first)
        #expect(settlement.job == id)
        guard case .retry(let code, _, let delay) = settlement.outcome else {
            Issue.record("not a retry: \(settlement.outcome)")
            return
        }
        #expect(code == "diag_failure")
        // diag.fail's policy: the first retry waits at most its base delay, 200 ms.
        let policy = try #require(KindDefinition.catalog["diag.fail"]).retry
        #expect(delay <= policy.delayCeiling(afterAttempt: 1))
        #expect(policy.delayCeiling(afterAttempt: 1) == .milliseconds(200))
    }

    @Test func aPermanentFailureFailsForGoodAndIsRecorded() async throws {
        let source = MemoryWorkSource()
        let records = MemoryRecords()
        try source.add(kind: "diag.fail", input: #"{"permanent":true}"#)
        try await Self.withWorker(source, records: records) {
            try await Self.eventually("the job recorded") { !records.jobs.isEmpty }
        }
        guard case .failed(let code, _)? = source.settlements.first?.outcome else {
            Issue.record("not failed: \(source.settlements)")
            return
        }
        #expect(code == "diag_failure")
        #expect(records.jobs.first?.state == .failed)
    }

    @Test func aJobOfAKindTheWorkerDoesNotServeFailsForGoodOnce() async throws {
        let source = MemoryWorkSource()
        try source.add(kind: "text.continue")
        try await Self.withWorker(source) {
            try await Self.eventually("the attempt settled") { !source.settlements.isEmpty }
        }
        #expect(source.settlements.count == 1)
        guard case .failed(let code, let message)? = source.settlements.first?.outcome else {
            Issue.record("not failed: \(source.settlements)")
            return
        }
        #expect(code == "unknown_kind")
        #expect(message.contains("text.continue"))
    }

    @Test func anAttemptWhoseLeaseWasLostStopsAndSettlesNothing() async throws {
        let source = MemoryWorkSource()
        let id = try source.add(kind: "diag.sleep", input: #"{"seconds":60}"#)
        try await Self.withWorker(source) {
            try await Self.eventually("the job claimed") { source.wasClaimed(id) }
            source.loseLease(id)
            try await Self.eventually("the loss reported and acted on") { source.renewedSinceLossReport(id) }
        }
        // Shutdown hands back what still runs: a stopped attempt is not among them, and settles nothing.
        #expect(source.settlements.filter { $0.job == id }.isEmpty)
    }

    /// A handler's progress never waits for Redis, yet every report reaches the job's stream, in order, while a few
    /// wait behind a slow write, and before its last status: the attempt settles only once its events are written.
    @Test func everyProgressReportIsWrittenBeforeTheAttemptSettlesThoughWritesAreSlow() async throws {
        let source = MemoryWorkSource()
        source.slowEmits(by: .milliseconds(100))
        let id = try source.add(kind: "diag.sleep", input: #"{"seconds":0.06,"progress_steps":6}"#)
        try await Self.withWorker(source) {
            try await Self.eventually("the attempt settled") { !source.settlements.isEmpty }
        }
        let events = source.events(of: id)
        #expect(source.eventCountAtSettlement(id) == events.count)
        #expect(events.last?.data == #"{"fraction":1}"#)
        #expect(events.compactMap { JSONValue.parse($0.data)?["fraction"]?.numberValue } == (1...6).map { Double($0) / 6 })
    }

    /// A delta whose write failed after the queue had appended it (its answer lost to a timeout) goes again alone,
    /// under its number: the next delta does not join it, and the job's stream holds each text once.
    @Test func aDeltaWhoseAnswerWasLostIsWrittenOnceAndNothingJoinsIt() async throws {
        let source = MemoryWorkSource()
        let job = try MemoryWorkSource.job(kind: "diag.echo")
        let context = JobContext(queue: source, records: MemoryRecords(), job: job)
        source.loseAnswers(1)
        context.delta("Hello")
        context.delta(", world")
        try await Self.eventually("the writes ended") { !source.isEmitting(job.id) }
        #expect(source.events(of: job.id).map(\.data) == [#"{"text":"Hello"}"#, #"{"text":", world"}"#])
    }

    @Test func anAttemptThatSucceedsAfterItsLeaseWasFoundLostSettlesNothing() async throws {
        let source = MemoryWorkSource()
        // One step: the handler sleeps, writes its progress (held until the lease is found lost), and succeeds.
        let id = try source.add(kind: "diag.sleep", input: #"{"seconds":0.05,"progress_steps":1}"#)
        source.holdEmits()
        try await Self.withWorker(source) {
            try await Self.eventually("the progress being written") { source.isEmitting(id) }
            source.loseLease(id)
            try await Self.eventually("the loss reported and acted on") { source.renewedSinceLossReport(id) }
            source.releaseEmits()
            try await Self.eventually("the attempt ended") { !source.isEmitting(id) }
            try await Task.sleep(for: .milliseconds(100))
        }
        #expect(source.settlements.filter { $0.job == id }.isEmpty)
    }

    /// An attempt that ends while Redis is away keeps its lease: it is renewed (in vain, until Redis is back) for as long
    /// as its settlement does not get through, so an outage shorter than the lease hands a finished job to no second
    /// attempt.
    @Test func anAttemptThatEndsWhileRedisIsAwayKeepsItsLeaseUntilItSettles() async throws {
        let source = MemoryWorkSource()
        let id = try source.add(kind: "diag.sleep", input: #"{"seconds":0.2,"progress_steps":2}"#)
        try await Self.withWorker(source) {
            try await Self.eventually("the job claimed") { source.wasClaimed(id) }
            source.goAway()
            do {
                try await Self.eventually("the attempt ended and failed to settle") { source.failedSettlements(id) > 0 }
                let renewals = source.renewalsAsked(id)
                try await Self.eventually("its lease renewed since", within: .seconds(30)) { source.renewalsAsked(id) > renewals }
            } catch {
                // Back, so that the worker can settle and drain as the test ends.
                source.comeBack()
                throw error
            }
            source.comeBack()
            try await Self.eventually("the attempt settled") { source.settlements.contains { $0.job == id } }
        }
        let settlements = source.settlements.filter { $0.job == id }
        #expect(settlements.count == 1)
        #expect(settlements.first?.attempt == 1)
        guard case .succeeded? = settlements.first?.outcome else {
            Issue.record("not a success: \(settlements)")
            return
        }
    }

    @Test func aLeaseFoundLostIsReportedOnceWhileItsAttemptEnds() async throws {
        let source = MemoryWorkSource()
        // Progress every 10 ms, each event taking 200 ms to write: the attempt is mid-write when it is stopped, and
        // runs on for many renewals (every 10 ms) before it ends.
        let id = try source.add(kind: "diag.sleep", input: #"{"seconds":60,"progress_steps":6000}"#)
        try await Self.withWorker(source) {
            try await Self.eventually("the job claimed") { source.wasClaimed(id) }
            source.slowEmits(by: .milliseconds(200))
            try await Task.sleep(for: .milliseconds(50))
            source.loseLease(id)
            try await Self.eventually("the loss reported and acted on") { source.renewedSinceLossReport(id) }
            try await Task.sleep(for: .milliseconds(400))
        }
        #expect(source.lossReportCount(id) == 1)
        #expect(source.settlements.filter { $0.job == id }.isEmpty)
    }

    /// An attempt stopped for another reason (here its owner's cancellation) whose lease is then lost, while it winds
    /// down, counts as a lost lease: it is not renewed again, and settles nothing (Redis would fence it off).
    @Test func aLeaseLostAfterAnotherStopStillSettlesNothing() async throws {
        let source = MemoryWorkSource()
        // Progress every 10 ms, each event taking 2 s to write: once stopped, the attempt runs on until its event is in.
        source.slowEmits(by: .seconds(2))
        let id = try source.add(kind: "diag.sleep", input: #"{"seconds":60,"progress_steps":6000}"#)
        try await Self.withWorker(source) {
            try await Self.eventually("the progress being written") { source.isEmitting(id) }
            source.requestCancel(id)
            try await Self.eventually("the cancellation reported") { source.wasReportedCancelled(id) }
            source.loseLease(id)
            try await Self.eventually("the loss reported and acted on") { source.renewedSinceLossReport(id) }
            try await Self.eventually("the attempt ended") { !source.isEmitting(id) }
            try await Task.sleep(for: .milliseconds(100))
        }
        #expect(source.lossReportCount(id) == 1)
        #expect(source.settlements.filter { $0.job == id }.isEmpty)
    }

    @Test func aCancellationRequestStopsTheJobAndSettlesItCancelled() async throws {
        let source = MemoryWorkSource()
        let id = try source.add(kind: "diag.sleep", input: #"{"seconds":60}"#)
        try await Self.withWorker(source) {
            try await Self.eventually("the job claimed") { source.wasClaimed(id) }
            source.requestCancel(id)
            try await Self.eventually("the attempt settled") { !source.settlements.isEmpty }
        }
        guard case .cancelled? = source.settlements.first?.outcome else {
            Issue.record("not cancelled: \(source.settlements)")
            return
        }
    }

    @Test func onShutdownAJobStillRunningAfterTheGraceIsHandedBack() async throws {
        let source = MemoryWorkSource()
        let id = try source.add(kind: "diag.sleep", input: #"{"seconds":60}"#)
        try await Self.withWorker(source, grace: .milliseconds(50)) {
            try await Self.eventually("the job claimed") { source.wasClaimed(id) }
        }
        guard case .released? = source.settlements.first(where: { $0.job == id })?.outcome else {
            Issue.record("not handed back: \(source.settlements)")
            return
        }
    }

    /// A wait for work claims as it ends (the Redis queue sends its claim behind the `BLPOP`), and the shutdown's drain
    /// ends the wait: a job claimed then is handed back unspent rather than run on the way out.
    @Test func aJobClaimedAsTheDrainEndsTheWaitIsHandedBackUnrun() async throws {
        let source = MemoryWorkSource()
        source.holdWaits()
        var id: JobID?
        try await Self.withWorker(source) {
            try await Self.eventually("the worker waiting for work") { source.isHoldingAWait }
            id = try source.add(kind: "diag.echo")
        }
        #expect(source.settlements.map(\.job) == [try #require(id)])
        guard case .released? = source.settlements.first?.outcome else {
            Issue.record("not handed back: \(source.settlements)")
            return
        }
    }

    /// An attempt that ends while the worker waits for work settles itself: waking the worker to settle it would cost a
    /// round trip more before the job's result is readable.
    @Test func anAttemptEndingWhileTheWorkerWaitsSettlesWithoutWakingIt() async throws {
        let source = MemoryWorkSource()
        source.holdWaits()
        let fleet = MemoryHeartbeats()
        let id = try source.add(kind: "diag.sleep", input: #"{"seconds":0.3}"#)
        try await Self.withWorker(source, fleet: fleet) {
            try await Self.eventually("the job claimed and the worker waiting") { source.wasClaimed(id) && source.isHoldingAWait }
            try await Self.eventually("the job settled") { !source.settlements.isEmpty }
            // Settled, the attempt is forgotten: its lease is renewed no more and the heartbeat shows nothing running.
            try await Self.eventually("a beat showing nothing running", within: .seconds(30)) { fleet.beats.last?.running == 0 }
            #expect(source.pokeCount == 0)
            #expect(source.isHoldingAWait)
        }
        #expect(source.settlements.map(\.job) == [id])
        guard case .succeeded? = source.settlements.first?.outcome else {
            Issue.record("not succeeded: \(source.settlements)")
            return
        }
    }

    @Test func theHeartbeatCountsWhatWasSettledAndKeepsWhatAFailedBeatDidNotDeliver() async throws {
        let source = MemoryWorkSource()
        // The first beats find Redis away: their counts must reach a later one.
        let fleet = MemoryHeartbeats(refusing: 3)
        for _ in 0..<3 { try source.add(kind: "diag.echo") }
        try source.add(kind: "diag.fail", input: #"{"permanent":true}"#)
        try source.add(kind: "diag.fail", input: #"{"times":5}"#)
        try await Self.withWorker(source, fleet: fleet) {
            try await Self.eventually("every job settled, and a beat delivered since") {
                source.settlements.count == 5 && fleet.beats.count >= 2
            }
        }
        let counts = fleet.ended.counts
        func count(_ outcome: AttemptOutcome) -> Int? { counts[.init(jobClass: .io, tenant: "acme", outcome: outcome)] }
        #expect(count(.succeeded) == 3)
        #expect(count(.failed) == 1)
        #expect(count(.retried) == 1)
        #expect(counts.count == 3)
        let beat = try #require(fleet.beats.last)
        #expect(beat.id == "unit-worker")
        #expect(beat.classes == [.io: 4])
        #expect(fleet.left == ["unit-worker"], "a worker that stops leaves the fleet")
    }

    @Test func theHeartbeatShowsTheAttemptsRunningByClassAndTenant() async throws {
        let source = MemoryWorkSource()
        let fleet = MemoryHeartbeats()
        let id = try source.add(kind: "diag.sleep", input: #"{"seconds":60}"#)
        try await Self.withWorker(source, fleet: fleet, grace: .milliseconds(50)) {
            try await Self.eventually("the job claimed") { source.wasClaimed(id) }
            try await Self.eventually("a beat showing it running") { fleet.beats.last?.lanes == [.init(jobClass: .io, tenant: "acme", running: 1)] }
        }
        #expect(fleet.beats.last?.running == 0, "the beat after the hand-back shows nothing running")
    }

    /// Runs a worker over `source` while `body` runs, then shuts it down gracefully and waits until it stopped.
    private static func withWorker(
        _ source: MemoryWorkSource, records: MemoryRecords = MemoryRecords(), fleet: MemoryHeartbeats? = nil, grace: Duration = .seconds(5),
        _ body: () async throws -> Void
    ) async throws {
        var configuration = WorkerConfiguration()
        configuration.id = "unit-worker"
        configuration.concurrency = [.io: 4]
        configuration.renewInterval = .milliseconds(10)
        configuration.maxIdleWait = .milliseconds(10)
        configuration.shutdownGrace = grace
        configuration.heartbeatInterval = .milliseconds(10)
        let logger = Logger(label: "kiln.test")
        let worker = Worker(
            queue: source, records: records, handlers: .diagnostics, configuration: configuration, logger: logger, fleet: fleet)
        let group = ServiceGroup(services: [worker], gracefulShutdownSignals: [], logger: logger)
        let running = Task { try await group.run() }
        do {
            try await body()
        } catch {
            await group.triggerGracefulShutdown()
            try? await running.value
            throw error
        }
        await group.triggerGracefulShutdown()
        try await running.value
    }

    /// Waits until `condition` holds, up to `limit`: a bound on a wait, not a measure of speed.
    private static func eventually(_ what: String, within limit: Duration = .seconds(120), _ condition: () -> Bool) async throws {
        let deadline = ContinuousClock.now + limit
        while !condition() {
            guard ContinuousClock.now < deadline else { throw WaitExpired(what: what) }
            try await Task.sleep(for: .milliseconds(2))
        }
    }

    private struct WaitExpired: Error, CustomStringConvertible {
        let what: String
        var description: String { "waited in vain for \(what)" }
    }
}
