import Foundation
public import KilnCore
import KilnKeys
import RedisClient

extension JobQueue {
    /// Settles finished attempts and claims the next jobs in one round trip: one call of each script on each shard
    /// concerned, the shards' calls sent together (over a cluster, to each node at once).
    /// - Returns: what each settlement did (nil where the attempt had lost its lease, or its shard could not be
    ///   reached), and the claim.
    ///
    /// With several shards, ``ShardClaimBalancer`` says which to claim from and how many; when the shards claimed
    /// from had fewer jobs than asked, the rest is asked of the other candidates in another round trip. Redis out of
    /// reach on every shard concerned throws; on only some, their settlements come back nil (their leases run out and
    /// the jobs come back, as when a settle's reply is lost) and the others' go on.
    public func settleAndClaim(
        _ settlements: [Settlement], jobClass: JobClass, count: Int, worker: String
    ) async throws -> (settled: [SettledAttempt?], claimed: ClaimBatch) {
        let balancer = namespace.balancer
        var (candidates, looked) =
            shards.count == 1
            ? ([ShardClaimBalancer.Candidate(shard: 0, backlog: nil)], [])
            : balancer.candidates(jobClass, worker: worker, shardCount: shards.count)
        if count > 0 {
            // A settlement can release a job held back at its identity's running cap: a shard settled on is asked to
            // claim too, after the settle in the same exchange, even one that said it was empty.
            let settling = Set(settlements.map(\.job.shard))
            candidates += looked.filter(settling.contains).map { ShardClaimBalancer.Candidate(shard: $0, backlog: nil) }
            looked.removeAll(where: settling.contains)
        }
        let looks = count > 0 && !looked.isEmpty ? Task { await look(at: looked, jobClass: jobClass, worker: worker) } : nil
        var pending = Dictionary(grouping: settlements.indices) { settlements[$0].job.shard }
        var settled = [SettledAttempt?](repeating: nil, count: settlements.count)
        var jobs: [ClaimedJob] = []
        var nextWake: Duration?
        var failure: (any Error)?
        var answered = false
        var rounds = 0
        repeat {
            let claims = ShardClaimBalancer.share(count - jobs.count, among: candidates)
            let visited = Set(pending.keys).union(claims.keys).sorted()
            let exchanges = visited.map { shard in
                (
                    shard,
                    calls(
                        on: shard, settling: (pending[shard] ?? []).map { settlements[$0] }, jobClass: jobClass, count: claims[shard] ?? 0,
                        worker: worker)
                )
            }
            // The next round's candidates: those not asked yet, and those that gave all they were asked and hold more.
            candidates.removeAll { claims[$0.shard] != nil }
            for (shard, result) in await exchange(exchanges) {
                let replies: [RedisValue]
                switch result {
                case .success(let answer): replies = answer
                case .failure(let error):
                    failure = error
                    continue
                }
                let settling = pending[shard] ?? []
                // The claim's reply is read even when the settle failed: jobs it claimed must not be dropped. A failed
                // settle reports every attempt as unsettled; their leases run out and the jobs come back.
                if !settling.isEmpty {
                    let results = SettleCall.settled(from: replies[0])
                    if results.count == settling.count { for (index, result) in zip(settling, results) { settled[index] = result } }
                }
                guard let asked = claims[shard], let reply = replies.last else {
                    answered = true
                    continue
                }
                let batch: ClaimBatch
                do {
                    batch = try ClaimCall.batch(of: reply)
                } catch {
                    // Answered with an error (its master gone mid-call, out of memory): it claimed nothing there.
                    failure = error
                    continue
                }
                answered = true
                jobs += batch.jobs
                if let next = batch.nextWakeIn { nextWake = min(nextWake ?? next, next) }
                guard shards.count > 1 else { continue }
                guard let backlog = try? ClaimCall.backlog(of: reply) else { continue }
                balancer.claimed(jobClass, worker: worker, shard: shard, backlog: backlog, nextWakeIn: batch.nextWakeIn)
                if batch.jobs.count == asked && backlog.waitingWeight > 0 && !backlog.tookRecovered {
                    candidates.append(.init(shard: shard, backlog: backlog))
                }
            }
            if rounds == 0, let found = await looks?.value {
                // Shards said empty that have tenants waiting now (a held job released, a job submitted meanwhile).
                candidates += found.map {
                    ShardClaimBalancer.Candidate(shard: $0.shard, backlog: ShardBacklog(waitingWeight: $0.weight, oldestWait: .zero))
                }
            }
            pending = [:]
            rounds += 1
        } while jobs.count < count && !candidates.isEmpty && rounds <= shards.count
        if let failure, !answered {
            // No shard answered in full: the caller keeps its settlements and tries again (one a shard applied is
            // fenced the second time, and the recorder's sweep records its job).
            throw failure
        }
        if shards.count > 1, let due = balancer.nextDue(jobClass, worker: worker) { nextWake = min(nextWake ?? due, due) }
        return (settled, ClaimBatch(jobs: jobs, nextWakeIn: nextWake))
    }

    /// Runs each shard's calls, the shards at once; each shard's replies, or why it could not answer.
    private func exchange(_ exchanges: [(Int, [RedisScriptCall])]) async -> [(Int, Result<[RedisValue], any Error>)] {
        func run(_ calls: [RedisScriptCall]) async -> Result<[RedisValue], any Error> {
            guard !calls.isEmpty else { return .success([]) }
            do { return .success(try await redis.evaluate(calls)) } catch { return .failure(error) }
        }
        if exchanges.count == 1 { return [(exchanges[0].0, await run(exchanges[0].1))] }
        return await withTaskGroup(of: (Int, Result<[RedisValue], any Error>).self) { group in
            for (shard, calls) in exchanges { group.addTask { (shard, await run(calls)) } }
            return await group.reduce(into: []) { $0.append($1) }
        }
    }

    /// One shard's calls of a round: its settle, then its claim, each when there is something to do.
    private func calls(on shard: Int, settling: [Settlement], jobClass: JobClass, count: Int, worker: String) -> [RedisScriptCall] {
        guard shard < shards.count else { return [] }
        let keys = shards.all[shard]
        var calls: [RedisScriptCall] = []
        if !settling.isEmpty {
            calls.append(SettleCall(keySpace: keys, settlements: settling, configuration: configuration).call(scripts.settle))
        }
        if count > 0 {
            let claim = ClaimCall(
                keySpace: keys, jobClass: jobClass, count: count, worker: worker, configuration: configuration, reportsBacklog: shards.count > 1)
            calls.append(claim.call(scripts.claim))
        }
        return calls
    }

    /// Looks at the rotations of shards that said they were empty. - Returns: those with tenants waiting, and their
    /// number (each weighs at least 1).
    private func look(at looked: [Int], jobClass: JobClass, worker: String) async -> [(shard: Int, weight: Int)] {
        guard let replies = try? await redis.pipeline(looked.map { ["ZCARD", shards.all[$0].active(jobClass)] }) else { return [] }
        let found = zip(looked, replies).map { ($0, Int($1.int ?? 0)) }.filter { $0.1 > 0 }
        for (shard, weight) in found { namespace.balancer.looked(jobClass, worker: worker, shard: shard, weight: weight) }
        return found
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
    /// script holds Redis for its whole run, and one renewing a thousand streaming jobs would hold it for milliseconds,
    /// which every delta written meanwhile would wait for.
    public func renew(_ leases: [(JobID, Int)]) async throws -> (lost: Set<JobID>, cancelRequested: Set<JobID>) {
        var lost: Set<JobID> = []
        var cancelRequested: Set<JobID> = []
        for (keys, leases) in Dictionary(grouping: leases, by: { shards.keys(of: $0.0) }) {
            guard let keys else {
                lost.formUnion(leases.map(\.0))
                continue
            }
            for start in stride(from: 0, to: leases.count, by: Self.renewBatch) {
                let batch = leases[start..<min(start + Self.renewBatch, leases.count)]
                let call = RenewCall(keySpace: keys, items: Array(batch), configuration: configuration)
                let outcome = try RenewCall.outcome(of: try await redis.evaluate(call.call(scripts.renew)))
                lost.formUnion(outcome.lost)
                cancelRequested.formUnion(outcome.cancelRequested)
            }
        }
        return (lost, cancelRequested)
    }

    /// The most leases one renewal script covers: about a millisecond of Redis at a time.
    static let renewBatch = 100

    /// Appends a `progress` or `delta` event for a running attempt and calls `completion` with whether it was appended
    /// (false when the attempt lost its lease), usually on a Redis connection's event loop. Events of many jobs share
    /// script calls (``EventWrites``). `sequence` numbers the attempt's events from 1 in the order it writes them: an
    /// event sent again under the number it had (its write failed, perhaps after Redis had appended it) is appended once.
    public func emit(
        _ type: String, data: String, job: JobID, attempt: Int, sequence: Int, progress: String? = nil,
        completion: @escaping @Sendable (Result<Bool, any Error>) -> Void
    ) {
        let event = EventWrites.Event(job: job, attempt: attempt, sequence: sequence, type: type, data: data, progress: progress)
        namespace.events.append(event, completion: completion)
    }

    /// Whether `attempt` is the job's running attempt: a worker that lost its lease must not write on the job's behalf.
    public func holdsLease(_ id: JobID, attempt: Int) async throws -> Bool {
        guard let keys = shards.keys(of: id) else { return false }
        let fields = try await redis.send(["HMGET", keys.job(id), "attempt", "state"]).array ?? []
        return fields.count == 2 && fields[0].int == Int64(attempt) && fields[1].string == JobState.running.rawValue
    }

    /// Blocks until the class's wake-up list or `worker`'s own gets a token on any shard, or `timeout` passes; on a
    /// connection of its own per shard. The first shard to wake it stops the others, and its next claim visits every
    /// shard (a token another shard's wait took as it stopped is not lost: that claim finds the work).
    ///
    /// With a single shard, up to `count` jobs are claimed the moment the wait ends, by a claim sent behind the `BLPOP`
    /// in the same write: the job a submission woke the worker for costs no round trip of its own. `start` gets that
    /// claim on the Redis connection's event loop as its answer arrives, before the caller resumes.
    /// - Returns: what `start` made of that claim, or nil when it was not made (several shards, `count` 0, Redis without
    ///   the script after a restart): the caller claims.
    public func waitForWork<Started: Sendable>(
        _ jobClass: JobClass, worker: String, timeout: Duration, thenClaim count: Int,
        starting start: @escaping @Sendable (ClaimBatch) -> Started
    ) async throws -> Started? {
        let seconds = String(format: "%.3f", Double(max(timeout.milliseconds, 1)) / 1000)
        func wait(_ keys: KeySpace) -> [String] { ["BLPOP", keys.wake(jobClass), keys.wake(jobClass, worker: worker), seconds] }
        guard shards.count > 1 else {
            let keys = shards.control
            guard count > 0 else {
                _ = try await redis.sendBlocking(wait(keys), blockFor: timeout)
                return nil
            }
            let claim = ClaimCall(
                keySpace: keys, jobClass: jobClass, count: count, worker: worker, configuration: configuration, reportsBacklog: false)
            let (woken, started) = try await redis.sendBlocking(wait(keys), blockFor: timeout, then: claim.call(scripts.claim)) { woken, claimed in
                // The claim's jobs are read even when the wait failed: jobs it claimed must not be dropped. A claim
                // answered with an error (out of memory) claimed nothing; the caller's own claim meets that error.
                (woken, claimed.flatMap { try? ClaimCall.batch(of: $0) }.map(start))
            }
            if let started { return started }
            if let error = woken.serverError { throw error }
            return nil
        }
        defer { namespace.balancer.woke(jobClass, worker: worker) }
        try await withThrowingTaskGroup(of: Void.self) { group in
            for keys in shards.all { group.addTask { _ = try await self.redis.sendBlocking(wait(keys), blockFor: timeout) } }
            try await group.next()
            group.cancelAll()
        }
        return nil
    }

    /// Wakes `worker` when it is blocked on its class (its list on shard 0: a worker blocks on every shard), or any
    /// idle worker of the class on every shard when `worker` is nil; the token expires in case that worker is gone.
    public func poke(_ jobClass: JobClass, worker: String?) async throws {
        let lists = worker.map { [shards.control.wake(jobClass, worker: $0)] } ?? shards.all.map { $0.wake(jobClass) }
        _ = try await redis.pipeline(lists.flatMap { [["LPUSH", $0, "1"], ["EXPIRE", $0, "60"]] })
    }

    /// Finished jobs that no worker has written to PostgreSQL for `age` (their worker died in between, or they
    /// finished without a worker: cancelled while queued, or their lease ran out for the last time).
    public func unrecorded(olderThan age: Duration, limit: Int) async throws -> [JobSnapshot] {
        let now = try await redis.send(["TIME"]).array?.first?.int ?? 0
        let cutoff = now * 1000 - age.milliseconds
        var found: [JobSnapshot] = []
        for keys in shards.all where found.count < limit {
            let ids = try await redis.send(["ZRANGE", keys.unrecorded, "-inf", String(cutoff), "BYSCORE", "LIMIT", "0", String(limit - found.count)])
            let jobIDs = (ids.array ?? []).compactMap { $0.string.flatMap(JobID.init(validating:)) }
            let jobs = try await snapshots(jobIDs)
            // A purged job leaves nothing to record: drop it, or it would come back on every sweep.
            let purged = zip(jobIDs, jobs).filter { $0.1 == nil }.map(\.0.rawValue)
            if !purged.isEmpty { _ = try await redis.send(["ZREM", keys.unrecorded] + purged) }
            found += jobs.compactMap { $0 }
        }
        return found
    }

    /// Marks jobs as recorded in PostgreSQL; finished ones then expire from Redis after the retention period. A job
    /// that finished again since its record was made stays unrecorded.
    public func markRecorded(_ jobs: [FinishedJob]) async throws {
        let calls = Dictionary(grouping: jobs) { shards.keys(of: $0.record.id) }.compactMap { keys, jobs in
            keys.map { RecordedCall(keySpace: $0, items: jobs, configuration: configuration).call(scripts.recorded) }
        }
        guard !calls.isEmpty else { return }
        for reply in try await redis.evaluate(calls) { _ = try reply.checked() }
    }
}
