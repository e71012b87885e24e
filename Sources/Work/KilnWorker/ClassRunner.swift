import Foundation
import KilnCore
import KilnQueue
import Locking
import Logging
import Metrics
import ServiceFailures

/// Claims and runs the jobs of one class: settles finished attempts and claims the next ones in one round trip,
/// and blocks on Redis (never polls) when there is nothing to claim.
final class ClassRunner: Sendable {
    private struct State {
        var finished: [(job: ClaimedJob, settlement: Settlement)] = []
        /// Attempts that ended since the loop last looked, settled or not.
        var freed = 0
        /// The loop is blocked on Redis: a finished attempt settles itself.
        var blocked = false
    }

    let jobClass: JobClass
    let concurrency: Int
    let queue: any WorkSource
    let records: any WorkerRecords
    let handlers: HandlerRegistry
    let running: RunningJobs
    let configuration: WorkerConfiguration
    let recordings: SignalledBuffer<FinishedJob>
    let endedAttempts: EndedAttempts
    let logger: Logger
    private let state = Locked(State())
    private let draining = Locked<Bool>(false)
    /// Signalled whenever an attempt finishes, for a loop that waits for a free slot.
    private let completions: (stream: AsyncStream<Void>, continuation: AsyncStream<Void>.Continuation)

    init(
        jobClass: JobClass, concurrency: Int, queue: any WorkSource, records: any WorkerRecords, handlers: HandlerRegistry, running: RunningJobs,
        configuration: WorkerConfiguration, recordings: SignalledBuffer<FinishedJob>, endedAttempts: EndedAttempts, logger: Logger
    ) {
        self.jobClass = jobClass
        self.concurrency = concurrency
        self.queue = queue
        self.records = records
        self.handlers = handlers
        self.running = running
        self.configuration = configuration
        self.recordings = recordings
        self.endedAttempts = endedAttempts
        self.logger = logger
        self.completions = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
    }

    /// Stops claiming; the loop ends once its running jobs have finished and been settled.
    func drain() {
        draining.withLock { $0 = true }
        completions.continuation.yield()
    }

    /// Wakes the loop if it is blocked on Redis, so it sees the drain.
    func wakeUp() async {
        try? await queue.poke(jobClass, worker: configuration.id)
    }

    func run() async throws {
        var inFlight = 0
        // Whether the queue may hold jobs this loop has not asked for: its last claim took all it asked, or none was made.
        var mayHoldMore = true
        // When the next delayed job or lease expiry falls due, as the last claim said.
        var nextWake: ContinuousClock.Instant?
        var completionSignals = completions.stream.makeAsyncIterator()
        // Settles that failed in a row: Redis is away, and the next try waits a little longer, up to a second.
        var settleFailures = 0
        let settleBackoff = ReconnectBackoff(maximum: .seconds(1))
        try await withThrowingDiscardingTaskGroup { group in
            // Counts the jobs a claim of `asked` took as running, and keeps what it said of the queue.
            func took(_ batch: ClaimBatch, asked: Int) {
                inFlight += batch.jobs.count
                mayHoldMore = batch.jobs.count == asked
                nextWake = batch.nextWakeIn.map { .now + $0 }
            }
            while true {
                let (finished, freed) = state.withLock { state in
                    defer {
                        state.finished = []
                        state.freed = 0
                    }
                    return (state.finished, state.freed)
                }
                inFlight -= freed
                let isDraining = draining.withLock { $0 }
                if isDraining && inFlight == 0 && finished.isEmpty {
                    // This loop may have taken the class's wake-up token on its way out: pass it on to another worker.
                    try? await queue.poke(jobClass, worker: nil)
                    return
                }
                let free = isDraining ? 0 : min(concurrency - inFlight, configuration.claimBatch)
                if !finished.isEmpty || (mayHoldMore && free > 0) {
                    let settled: [SettledAttempt?]
                    let batch: ClaimBatch
                    do {
                        (settled, batch) = try await queue.settleAndClaim(
                            finished.map(\.settlement), jobClass: jobClass, count: free, worker: configuration.id)
                    } catch {
                        // Redis is away: keep the settlements, whose leases are still renewed, and try again soon. An
                        // attempt that was settled before the connection broke is fenced the second time and recorded
                        // by the sweep.
                        logger.error("settle and claim failed", metadata: ["error": "\(error)", "job.class": "\(jobClass.rawValue)"])
                        state.withLock { state in
                            state.finished.insert(contentsOf: finished, at: 0)
                            state.freed += freed
                        }
                        inFlight += freed
                        settleFailures += 1
                        try await Task.sleep(for: settleBackoff.delay(afterFailures: settleFailures))
                        continue
                    }
                    settleFailures = 0
                    report(finished, settled)
                    took(batch, asked: free)
                    // The group's children begin these jobs, which come hundreds at a time: begun here, one after
                    // another, they would hold up the loop's next settle and claim.
                    for job in batch.jobs { group.addTask { await self.execute(job, self.begin(job)) } }
                    continue
                }
                if free == 0 {
                    _ = await completionSignals.next()
                    continue
                }
                // Fewer jobs waiting than this loop has room for: it blocks until one arrives, and claims it as it wakes.
                guard let claimed = try await block(until: nextWake, claiming: free) else {
                    mayHoldMore = true
                    continue
                }
                switch claimed {
                case .begun(let batch, let attempts):
                    // Begun as the claim's answer arrived: begun from the group's children, a handler would wait for a
                    // thread to resume this loop and then for another to take its child up.
                    took(batch, asked: free)
                    for (job, attempt) in zip(batch.jobs, attempts) { group.addTask { await self.execute(job, attempt) } }
                case .handedBack(let batch):
                    // Claimed as the drain woke the loop: handed back unspent, at the head of their lists.
                    let released = batch.jobs.map { ($0, Settlement(job: $0.id, attempt: $0.attempt, outcome: .released)) }
                    state.withLock { $0.finished += released }
                }
            }
        }
    }

    /// Blocks on the class's wake-up list and this worker's own, until work arrives, the worker is poked (the drain, a
    /// settle that failed), or the next delayed job or lease expiry falls due (`nextWake`, as the last claim said).
    /// - Returns: up to `count` jobs claimed as the wait ended, their attempts begun as the claim's answer arrived; nil
    ///   when the loop must claim itself (a job of ours finished before it blocked, the queue left the claim to it, or
    ///   the wait failed).
    private func block(until nextWake: ContinuousClock.Instant?, claiming count: Int) async throws -> WokenClaim? {
        let mayBlock = state.withLock { state in
            state.blocked = state.freed == 0
            return state.blocked
        }
        guard mayBlock else { return nil }
        let untilDue = nextWake.map { $0 - .now } ?? configuration.maxIdleWait
        let timeout = min(configuration.maxIdleWait, max(untilDue, .milliseconds(1)))
        defer { state.withLock { $0.blocked = false } }
        do {
            return try await queue.waitForWork(jobClass, worker: configuration.id, timeout: timeout, thenClaim: count) { batch in
                self.draining.withLock { $0 } ? .handedBack(batch) : .begun(batch, batch.jobs.map(self.begin))
            }
        } catch {
            logger.error("waiting for work failed", metadata: ["error": "\(error)", "job.class": "\(jobClass.rawValue)"])
            try await Task.sleep(for: .seconds(1))
            return nil
        }
    }

    private func execute(_ job: ClaimedJob, _ attempt: Attempt?) async {
        let outcome = await settlement(of: attempt, job)
        let settlesItself = state.withLock { state in
            state.freed += 1
            // A lost lease settles nothing (the attempt is another worker's now); only the slot comes back.
            guard let outcome else { return false }
            if state.blocked { return true }
            state.finished.append((job, outcome))
            return false
        }
        completions.continuation.yield()
        guard settlesItself, let outcome else { return }
        // The loop is blocked on Redis: waking it would cost a round trip before its settle's. The attempt settles
        // itself, and the loop sleeps on; the freed slot is claimed for when it next wakes.
        do {
            report([(job, outcome)], try await queue.settleAndClaim([outcome], jobClass: jobClass, count: 0, worker: configuration.id).settled)
        } catch {
            // Redis is away: the loop settles it with the others once Redis answers again.
            logger.error("settle failed", metadata: ["error": "\(error)", "job.class": "\(jobClass.rawValue)"])
            state.withLock { $0.finished.append((job, outcome)) }
            try? await queue.poke(jobClass, worker: configuration.id)
        }
    }

    /// A claim made as the loop's wait ended.
    private enum WokenClaim: Sendable {
        /// Its jobs' attempts, begun where the claim's answer was read (nil where no handler serves a job's kind).
        case begun(ClaimBatch, [Attempt?])
        /// The runner was draining by then: the jobs go back.
        case handedBack(ClaimBatch)
    }

    /// An attempt whose handler runs in a task of its own.
    private struct Attempt: Sendable {
        let task: Task<String, any Error>
        let context: JobContext
        let policy: RetryPolicy
        let started: ContinuousClock.Instant
    }

    /// Starts the handler of a claimed job, under the kind's deadline; nil when no handler serves the kind.
    private func begin(_ job: ClaimedJob) -> Attempt? {
        guard let served = handlers[job.kind] else {
            logger.error("claimed a job of a kind no handler serves", metadata: ["job.id": "\(job.id)", "job.kind": "\(job.kind)"])
            return nil
        }
        let handler = served.handler
        let context = JobContext(queue: queue, records: records, job: job)
        let started = ContinuousClock.now
        let task = Task { try await handler.run(job, context: context) }
        running.add(job, of: jobClass, task: task)
        return Attempt(task: task, context: context, policy: served.kind.retry, started: started)
    }

    /// Waits for the attempt's handler and says how to settle it; nil when the lease was lost.
    private func settlement(of attempt: Attempt?, _ job: ClaimedJob) async -> Settlement? {
        let settle = { (outcome: Settlement.Outcome) in Settlement(job: job.id, attempt: job.attempt, outcome: outcome) }
        guard let attempt else {
            // A worker offers every kind of the classes it claims (it refuses to start otherwise), so no worker of this
            // build serves it: handing it back would bring it round every few seconds for ever. An operator can
            // replay it from the dead letters once a worker that knows the kind runs.
            return settle(.failed(code: "unknown_kind", message: "no worker serves the kind \(job.kind)"))
        }
        let result = await attempt.task.result
        let elapsed = ContinuousClock.now - attempt.started
        Timer(label: "kiln_job_duration_seconds", dimensions: [("kind", job.kind)])
            .recordNanoseconds(elapsed.components.seconds * 1_000_000_000 + elapsed.components.attoseconds / 1_000_000_000)
        // What the attempt streamed while Redis was away goes before its last status.
        await attempt.context.events.flush()
        let reason = running.end(job)
        switch (result, reason) {
        case (_, .leaseLost?):
            // Even a success: the job is another attempt's now, so Redis would fence the settlement off. The attempt
            // counts once, as a lease lost, and costs no round trip.
            return nil
        case (.success(let value), _):
            return settle(.succeeded(result: value))
        case (_, .cancelRequested?):
            return settle(.cancelled(message: "cancelled by its owner"))
        case (_, .shutdown?):
            return settle(.released)
        case (_, .deadline?):
            return retry(
                job, JobFailure.retryable(code: "deadline_exceeded", message: "the attempt ran past its deadline of \(job.timeout)"),
                policy: attempt.policy)
        case (.failure(let error), nil):
            guard let failure = error as? JobFailure else {
                // The error's own words go to the operator's log only; the job's owner sees the generic failure below.
                logger.warning(
                    "handler threw an untyped error", metadata: ["job.id": "\(job.id)", "job.kind": "\(job.kind)", "error": "\(error)"])
                return retry(job, JobFailure.retryable(code: "handler_error", message: "the handler failed"), policy: attempt.policy)
            }
            return retry(job, failure, policy: attempt.policy)
        }
    }

    private func retry(_ job: ClaimedJob, _ failure: JobFailure, policy: RetryPolicy) -> Settlement {
        let outcome: Settlement.Outcome
        if let delay = failure.throttleDelay {
            outcome = .throttled(code: failure.code, message: failure.message, delay: delay)
        } else if failure.isCancellation {
            outcome = .cancelled(message: failure.message)
        } else if failure.isRetryable {
            outcome = .retry(
                code: failure.code, message: failure.message, delay: policy.delay(afterAttempt: job.tries, unitRandom: .random(in: 0..<1)))
        } else {
            outcome = .failed(code: failure.code, message: failure.message)
        }
        return Settlement(job: job.id, attempt: job.attempt, outcome: outcome)
    }

    /// Forgets the attempts Redis answered the settlements of (their leases are renewed no more), counts what the settle
    /// did (the metrics, the fleet's throughput) and hands the jobs that ended to the recorder: after every settle that
    /// reached Redis, the loop's or an attempt's own.
    private func report(_ finished: [(job: ClaimedJob, settlement: Settlement)], _ settled: [SettledAttempt?]) {
        running.settled(finished.map(\.settlement))
        var ended: [FinishedJob] = []
        var outcomes: [(job: ClaimedJob, outcome: AttemptOutcome)] = []
        var counts: [JobState: Int] = [:]
        var fenced = 0
        for ((job, settlement), attempt) in zip(finished, settled) {
            guard let attempt else {
                fenced += 1
                continue
            }
            counts[attempt.state, default: 0] += 1
            if let done = job.finished(attempt, result: settlement.result) { ended.append(done) }
            guard let outcome = AttemptOutcome(settlement, settled: attempt) else { continue }
            outcomes.append((job, outcome))
            if outcome.isFailure { FailureCounters.counter(kind: job.kind, outcome: outcome).increment() }
        }
        for (state, count) in counts {
            Counter(label: "kiln_jobs_total", dimensions: [("class", jobClass.rawValue), ("status", state.rawValue)]).increment(by: count)
        }
        recordings.append(ended)
        if fenced > 0 {
            // Their leases ran out while this worker was cut off or stalled, and other workers hold the jobs now (or, after
            // a broken connection, this worker had settled them already): what these attempts did counts for nothing.
            logger.warning(
                "settlements fenced off: the attempts no longer hold their jobs",
                metadata: ["job.count": "\(fenced)", "job.class": "\(jobClass.rawValue)"])
        }
        endedAttempts.count(outcomes, jobClass: jobClass)
    }
}
