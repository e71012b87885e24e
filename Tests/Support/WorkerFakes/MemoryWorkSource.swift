public import KilnCore
public import KilnQueue
import Dispatch
import Locking

/// The queue as a worker sees it, in memory: jobs waiting to be claimed, every settlement the worker sent, every
/// event a job emitted, leases an operator (the test) took away or asked to cancel, and what was marked recorded.
public final class MemoryWorkSource: WorkSource {
    /// An event a job emitted (`progress`, `delta`, `retract`), as the queue received it.
    public struct Event: Sendable, Equatable {
        public var type: String
        /// The event's JSON.
        public var data: String
        public var job: JobID
        public var attempt: Int
    }

    private struct State {
        var waiting: [(jobClass: JobClass, job: ClaimedJob)] = []
        var claimed: Set<JobID> = []
        var settlements: [Settlement] = []
        var events: [Event] = []
        var lost: Set<JobID> = []
        var cancelRequested: Set<JobID> = []
        /// How many renewals reported each lease lost.
        var lossReports: [JobID: Int] = [:]
        /// How many renewals there were, and the one that first reported each lease lost.
        var renewals = 0
        var firstLossReport: [JobID: Int] = [:]
        /// The jobs a renewal reported their owner asked to cancel.
        var cancelReported: Set<JobID> = []
        /// The last number each attempt's events were appended under.
        var lastSequences: [JobAttempt: Int] = [:]
        /// Events still to be appended with their writes failing, as if their answers were lost.
        var answersToLose = 0
        /// How long each event takes to be taken, whatever happens meanwhile (a slow Redis).
        var emitDelay: Duration = .zero
        /// Events held until the test lets them be taken (nil when events are not held).
        var heldEmits: [@Sendable () -> Void]?
        /// The jobs whose event is being taken right now.
        var emitting: Set<JobID> = []
        /// How many of its events the queue had taken when each job's attempt settled.
        var eventsAtSettlement: [JobID: Int] = [:]
        var recorded: [FinishedJob] = []
        /// Waits hold until a poke, as a worker's `BLPOP` does, rather than returning soon.
        var holdsWaits = false
        var heldWaits: [CheckedContinuation<Void, Never>] = []
        /// Pokes no wait has taken yet, as tokens on a wake-up list.
        var pokes = 0
        var pokeCount = 0
        var clock: Int64 = 1_790_000_000_000
        /// Redis is away: settles, renewals and event writes fail.
        var isAway = false
        /// How many renewals asked for each job's lease, those that failed included.
        var renewalsAsked: [JobID: Int] = [:]
        /// How many settlements of each job failed, Redis being away.
        var failedSettlements: [JobID: Int] = [:]
    }

    private let state = Locked(State())

    private struct JobAttempt: Hashable {
        let job: JobID
        let attempt: Int
    }

    /// The failure of an event write whose answer was lost.
    public struct LostAnswer: Error {}

    /// The failure of every call while Redis is away.
    public struct Away: Error {}

    public init() {}

    /// A job of `kind` as a worker claims it, of tenant `acme`, for a handler to run without queueing it.
    public static func job(kind: String, input: String = "{}", attempt: Int = 1, timeout: Duration = .seconds(30)) throws -> ClaimedJob {
        ClaimedJob(
            id: JobID(), attempt: attempt, tenant: try Self.require(TenantID(validating: "acme")),
            identity: try Self.require(Identity(validating: "user-1")), kind: kind, input: input, timeout: timeout,
            createdAtMilliseconds: 1_790_000_000_000, maxAttempts: 3, tries: attempt, priority: .normal, startedAtMilliseconds: 1_790_000_000_000,
            tier: nil)
    }

    /// Queues a job of `kind`; returns its id.
    @discardableResult
    public func add(kind: String, input: String = "{}", jobClass: JobClass = .io, timeout: Duration = .seconds(30)) throws -> JobID {
        let job = try Self.job(kind: kind, input: input, timeout: timeout)
        state.withLock { $0.waiting.append((jobClass, job)) }
        return job.id
    }

    /// Takes the job's lease away, as lease recovery does when a worker stalls: its next renewal reports it lost.
    public func loseLease(_ id: JobID) { state.withLock { _ = $0.lost.insert(id) } }
    /// Redis goes away: settles, renewals and event writes fail until ``comeBack()``.
    public func goAway() { state.withLock { $0.isAway = true } }
    public func comeBack() { state.withLock { $0.isAway = false } }
    /// How many renewals, failed ones included, asked for the job's lease.
    public func renewalsAsked(_ id: JobID) -> Int { state.withLock { $0.renewalsAsked[id] ?? 0 } }
    /// How many settlements of the job failed while Redis was away.
    public func failedSettlements(_ id: JobID) -> Int { state.withLock { $0.failedSettlements[id] ?? 0 } }
    /// Asks to cancel the running job, as its owner does: its next renewal reports it.
    public func requestCancel(_ id: JobID) { state.withLock { _ = $0.cancelRequested.insert(id) } }

    public var settlements: [Settlement] { state.withLock { $0.settlements } }
    public var recorded: [FinishedJob] { state.withLock { $0.recorded } }
    /// Every event emitted while the job held its lease, in the order the queue took them.
    public func events(of id: JobID) -> [Event] { state.withLock { $0.events.filter { $0.job == id } } }
    public func wasClaimed(_ id: JobID) -> Bool { state.withLock { $0.claimed.contains(id) } }
    /// Whether a renewal came after the one that reported the lease lost: the worker renews one call at a time, so by
    /// then it has acted on the loss.
    public func renewedSinceLossReport(_ id: JobID) -> Bool {
        state.withLock { state in state.firstLossReport[id].map { state.renewals > $0 } ?? false }
    }
    public func lossReportCount(_ id: JobID) -> Int { state.withLock { $0.lossReports[id] ?? 0 } }
    public func wasReportedCancelled(_ id: JobID) -> Bool { state.withLock { $0.cancelReported.contains(id) } }
    public func isEmitting(_ id: JobID) -> Bool { state.withLock { $0.emitting.contains(id) } }
    /// How many of the job's events the queue had taken when its attempt settled; nil before it settled.
    public func eventCountAtSettlement(_ id: JobID) -> Int? { state.withLock { $0.eventsAtSettlement[id] } }
    /// Makes waits for work hold until a poke, as a worker blocked on Redis does until a token arrives.
    public func holdWaits() { state.withLock { $0.holdsWaits = true } }
    public var isHoldingAWait: Bool { state.withLock { !$0.heldWaits.isEmpty } }
    /// How many times a worker was poked awake.
    public var pokeCount: Int { state.withLock { $0.pokeCount } }
    /// Makes every event take `delay` to be taken, cancelled or not: an attempt stopped while it writes one ends late.
    public func slowEmits(by delay: Duration) { state.withLock { $0.emitDelay = delay } }
    /// Appends the next `count` events, but fails their writes, as a write whose answer timed out after Redis ran it.
    public func loseAnswers(_ count: Int) { state.withLock { $0.answersToLose = count } }
    /// Holds every event being written until ``releaseEmits()``, however long the test takes to look.
    public func holdEmits() { state.withLock { $0.heldEmits = $0.heldEmits ?? [] } }
    /// Takes the events held since ``holdEmits()``, and those that come later at once.
    public func releaseEmits() {
        let held = state.withLock { state in
            defer { state.heldEmits = nil }
            return state.heldEmits ?? []
        }
        for take in held { take() }
    }

    public func settleAndClaim(
        _ settlements: [Settlement], jobClass: JobClass, count: Int, worker: String
    ) async throws -> (settled: [SettledAttempt?], claimed: ClaimBatch) {
        try state.withLock { state in
            guard !state.isAway else {
                for settlement in settlements { state.failedSettlements[settlement.job, default: 0] += 1 }
                throw Away()
            }
            state.clock += 1
            state.settlements += settlements
            for settlement in settlements {
                state.eventsAtSettlement[settlement.job] = state.events.filter { $0.job == settlement.job }.count
            }
            let settled = settlements.map { settlement in
                state.lost.contains(settlement.job) ? nil : Self.settled(settlement.outcome, at: state.clock)
            }
            var claimed: [ClaimedJob] = []
            while claimed.count < count, let index = state.waiting.firstIndex(where: { $0.jobClass == jobClass }) {
                claimed.append(state.waiting.remove(at: index).job)
            }
            state.claimed.formUnion(claimed.map(\.id))
            return (settled, ClaimBatch(jobs: claimed, nextWakeIn: nil))
        }
    }

    public func renew(_ leases: [(JobID, Int)]) async throws -> (lost: Set<JobID>, cancelRequested: Set<JobID>) {
        try state.withLock { state in
            for (id, _) in leases { state.renewalsAsked[id, default: 0] += 1 }
            guard !state.isAway else { throw Away() }
            state.renewals += 1
            let held = Set(leases.map(\.0))
            let lost = held.intersection(state.lost)
            for id in lost {
                state.lossReports[id, default: 0] += 1
                if state.firstLossReport[id] == nil { state.firstLossReport[id] = state.renewals }
            }
            let cancelRequested = held.intersection(state.cancelRequested).subtracting(lost)
            state.cancelReported.formUnion(cancelRequested)
            return (lost, cancelRequested)
        }
    }

    /// Appends the event as `event.lua` does: once for each number of the attempt's (an event sent again is answered as
    /// appended), nothing for an attempt whose lease was taken away.
    public func emit(
        _ type: String, data: String, job: JobID, attempt: Int, sequence: Int, progress: String?,
        completion: @escaping @Sendable (Result<Bool, any Error>) -> Void
    ) {
        let take: @Sendable () -> Void = {
            let answer = self.state.withLock { state -> Result<Bool, any Error> in
                state.emitting.remove(job)
                guard !state.isAway else { return .failure(Away()) }
                guard !state.lost.contains(job) else { return .success(false) }
                if sequence > state.lastSequences[JobAttempt(job: job, attempt: attempt), default: 0] {
                    state.lastSequences[JobAttempt(job: job, attempt: attempt)] = sequence
                    state.events.append(Event(type: type, data: data, job: job, attempt: attempt))
                }
                guard state.answersToLose == 0 else {
                    state.answersToLose -= 1
                    return .failure(LostAnswer())
                }
                return .success(true)
            }
            completion(answer)
        }
        let delay = state.withLock { state in
            state.emitting.insert(job)
            state.heldEmits?.append(take)
            return state.heldEmits == nil ? state.emitDelay : nil
        }
        guard let delay else { return }
        guard delay > .zero else { return take() }
        DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(Int(delay.milliseconds)), execute: take)
    }

    public func holdsLease(_ id: JobID, attempt: Int) async throws -> Bool {
        state.withLock { !$0.lost.contains(id) }
    }

    /// Returns soon, or at a poke when waits hold, then claims as the Redis queue does behind its `BLPOP`.
    public func waitForWork<Started: Sendable>(
        _ jobClass: JobClass, worker: String, timeout: Duration, thenClaim count: Int, starting start: @escaping @Sendable (ClaimBatch) -> Started
    ) async throws -> Started? {
        if state.withLock({ $0.holdsWaits }) {
            await withCheckedContinuation { (woken: CheckedContinuation<Void, Never>) in
                let token = state.withLock { state in
                    guard state.pokes == 0 else {
                        state.pokes -= 1
                        return true
                    }
                    state.heldWaits.append(woken)
                    return false
                }
                if token { woken.resume() }
            }
        } else {
            try await Task.sleep(for: min(timeout, .milliseconds(5)))
        }
        return start(try await settleAndClaim([], jobClass: jobClass, count: count, worker: worker).claimed)
    }

    public func poke(_ jobClass: JobClass, worker: String?) async throws {
        let woken = state.withLock { state in
            state.pokeCount += 1
            defer { state.heldWaits = [] }
            if state.heldWaits.isEmpty { state.pokes = 1 }
            return state.heldWaits
        }
        for wait in woken { wait.resume() }
    }

    public func unrecorded(olderThan age: Duration, limit: Int) async throws -> [JobSnapshot] { [] }

    public func markRecorded(_ jobs: [FinishedJob]) async throws {
        state.withLock { $0.recorded += jobs }
    }

    /// What the settle script answers for `outcome`, with attempts to spare.
    private static func settled(_ outcome: Settlement.Outcome, at time: Int64) -> SettledAttempt {
        switch outcome {
        case .succeeded: SettledAttempt(state: .succeeded, settledAtMilliseconds: time)
        case .failed(let code, let message): SettledAttempt(state: .failed, settledAtMilliseconds: time, errorCode: code, errorMessage: message)
        case .cancelled(let message): SettledAttempt(state: .cancelled, settledAtMilliseconds: time, errorCode: "cancelled", errorMessage: message)
        case .retry, .throttled: SettledAttempt(state: .retrying, settledAtMilliseconds: time)
        case .released: SettledAttempt(state: .queued, settledAtMilliseconds: time)
        }
    }

    private static func require<Value>(_ value: Value?) throws -> Value {
        guard let value else { throw FakeError.invalidFixture }
        return value
    }

    private enum FakeError: Error { case invalidFixture }
}
