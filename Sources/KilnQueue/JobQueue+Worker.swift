import Foundation
public import KilnCore
import KilnKeys
import RedisClient

extension JobQueue {
    /// Settles finished attempts and claims the next jobs in one round trip.
    /// - Returns: what each settlement did (nil where the attempt had lost its lease), and the claim.
    public func settleAndClaim(
        _ settlements: [Settlement], jobClass: JobClass, count: Int, worker: String
    ) async throws -> (settled: [SettledAttempt?], claimed: ClaimBatch) {
        var calls: [RedisScriptCall] = []
        if !settlements.isEmpty {
            calls.append(SettleCall(keySpace: keys, settlements: settlements, configuration: configuration).call(scripts.settle))
        }
        if count > 0 {
            let claim = ClaimCall(keySpace: keys, jobClass: jobClass, count: count, worker: worker, configuration: configuration)
            calls.append(claim.call(scripts.claim))
        }
        guard !calls.isEmpty else { return ([], ClaimBatch(jobs: [], nextWakeIn: nil)) }
        let replies = try await redis.evaluate(calls)
        // The claim's reply is read even when the settle failed: jobs it claimed must not be dropped. A failed settle
        // reports every attempt as unsettled; their leases run out and the jobs come back.
        let claimed = count > 0 ? try ClaimCall.batch(of: replies[replies.count - 1]) : ClaimBatch(jobs: [], nextWakeIn: nil)
        let settled = settlements.isEmpty ? [] : SettleCall.settled(from: replies[0])
        return (settled.count == settlements.count ? settled : settlements.map { _ in nil }, claimed)
    }

    /// Settles finished attempts. - Returns: what each settlement did, nil where the attempt had lost its lease.
    public func settle(_ settlements: [Settlement]) async throws -> [SettledAttempt?] {
        try await settleAndClaim(settlements, jobClass: .io, count: 0, worker: "").settled
    }

    /// Extends the leases of running attempts.
    /// - Returns: the jobs whose lease was lost (stop them: another worker may run them), and those whose owner asked
    ///   to cancel them.
    ///
    /// Leases go in calls of at most ``renewBatch``, one after another, so other clients' commands get in between: a
    /// script holds Redis for its whole run, and one renewing a thousand streaming jobs took 9 ms (Redis's slow log),
    /// which every delta written meanwhile waited for.
    public func renew(_ leases: [(JobID, Int)]) async throws -> (lost: Set<JobID>, cancelRequested: Set<JobID>) {
        var lost: Set<JobID> = []
        var cancelRequested: Set<JobID> = []
        for start in stride(from: 0, to: leases.count, by: Self.renewBatch) {
            let batch = leases[start..<min(start + Self.renewBatch, leases.count)]
            let call = RenewCall(keySpace: keys, items: Array(batch), configuration: configuration)
            let outcome = try RenewCall.outcome(of: try await redis.evaluate(call.call(scripts.renew)))
            lost.formUnion(outcome.lost)
            cancelRequested.formUnion(outcome.cancelRequested)
        }
        return (lost, cancelRequested)
    }

    /// The most leases one renewal script covers: about a millisecond of Redis at a time.
    static let renewBatch = 100

    /// Appends a `progress` or `delta` event for a running attempt; false when the attempt lost its lease.
    @discardableResult
    public func emit(_ type: String, data: String, job: JobID, attempt: Int, progress: String? = nil) async throws -> Bool {
        let call = EventCall(keySpace: keys, job: job, attempt: attempt, type: type, data: data, progress: progress, configuration: configuration)
        return try EventCall.appended(try await redis.evaluate(call.call(scripts.event)))
    }

    /// Whether `attempt` is the job's running attempt: a worker that lost its lease must not write on the job's behalf.
    public func holdsLease(_ id: JobID, attempt: Int) async throws -> Bool {
        let fields = try await redis.send(["HMGET", keys.job(id), "attempt", "state"]).array ?? []
        return fields.count == 2 && fields[0].int == Int64(attempt) && fields[1].string == JobState.running.rawValue
    }

    /// Blocks until the class's wake-up list or `worker`'s own gets a token, or `timeout` passes; on a connection of
    /// its own.
    public func waitForWork(_ jobClass: JobClass, worker: String, timeout: Duration) async throws {
        let seconds = String(format: "%.3f", Double(max(timeout.milliseconds, 1)) / 1000)
        let lists = [keys.wake(jobClass), keys.wake(jobClass, worker: worker)]
        _ = try await redis.sendBlocking(["BLPOP"] + lists + [seconds], blockFor: timeout)
    }

    /// Wakes `worker` when it is blocked on its class, or any idle worker of the class when `worker` is nil; the
    /// token expires in case that worker is gone.
    public func poke(_ jobClass: JobClass, worker: String?) async throws {
        let list = worker.map { keys.wake(jobClass, worker: $0) } ?? keys.wake(jobClass)
        _ = try await redis.pipeline([["LPUSH", list, "1"], ["EXPIRE", list, "60"]])
    }

    /// Finished jobs that no worker has written to PostgreSQL for `age` (their worker died in between, or they
    /// finished without a worker: cancelled while queued, or their lease ran out for the last time).
    public func unrecorded(olderThan age: Duration, limit: Int) async throws -> [JobSnapshot] {
        let now = try await redis.send(["TIME"]).array?.first?.int ?? 0
        let cutoff = now * 1000 - age.milliseconds
        let ids = try await redis.send(["ZRANGE", keys.unrecorded, "-inf", String(cutoff), "BYSCORE", "LIMIT", "0", String(limit)]).array ?? []
        let jobIDs = ids.compactMap { $0.string.flatMap(JobID.init(validating:)) }
        let jobs = try await snapshots(jobIDs)
        // A purged job leaves nothing to record: drop it, or it would come back on every sweep.
        let purged = zip(jobIDs, jobs).filter { $0.1 == nil }.map(\.0.rawValue)
        if !purged.isEmpty { _ = try await redis.send(["ZREM", keys.unrecorded] + purged) }
        return jobs.compactMap { $0 }
    }

    /// Marks jobs as recorded in PostgreSQL; finished ones then expire from Redis after the retention period. A job
    /// that finished again since its record was made stays unrecorded.
    public func markRecorded(_ jobs: [FinishedJob]) async throws {
        guard !jobs.isEmpty else { return }
        _ = try await redis.evaluate(RecordedCall(keySpace: keys, items: jobs, configuration: configuration).call(scripts.recorded))
    }
}
