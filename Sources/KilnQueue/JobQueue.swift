public import KilnCore
public import RedisClient

/// The queue engine: every state change of a job is one atomic Lua script on Redis.
public final class JobQueue: Sendable {
    public let configuration: QueueConfiguration
    public let keys: QueueKeys
    let redis: RedisPool
    /// Connections for blocking reads (wake-ups, event streams), kept apart so they never starve the others.
    let blockingRedis: RedisPool
    let scripts: QueueScripts

    public init(redis: RedisPool, blockingRedis: RedisPool, configuration: QueueConfiguration = QueueConfiguration()) throws {
        self.configuration = configuration
        self.keys = QueueKeys(namespace: configuration.namespace)
        self.redis = redis
        self.blockingRedis = blockingRedis
        self.scripts = try QueueScripts()
    }

    /// Loads the scripts, so a broken one stops the process at start rather than at its first call.
    public func prepare() async throws {
        try await redis.load(scripts.all)
    }

    var streamCap: String { String(configuration.streamCap) }

    /// Admits and enqueues a job, or finds the one its idempotency key already made (a replay is not charged again).
    public func enqueue(_ submission: Submission) async throws -> EnqueueOutcome {
        let idempotencyKey = submission.idempotencyKey ?? ""
        let admission =
            submission.charge?.scriptArguments(reservationLifetime: configuration.reservationLifetime) ?? Array(repeating: "", count: 18)
        let reply = try await redis.evaluate(
            scripts.enqueue,
            keys: [keys.job(submission.id), keys.idempotency(submission.tenant, submission.identity, idempotencyKey)],
            arguments: [
                keys.base, submission.id.rawValue, submission.tenant.rawValue, submission.identity.rawValue, submission.kind,
                submission.jobClass.rawValue, String(submission.priority.rank), submission.input, String(submission.maxAttempts),
                String(submission.timeout.milliseconds), String(submission.delay.milliseconds), String(submission.runningCap),
                String(submission.weight), submission.bodyHash, idempotencyKey,
                String(configuration.idempotencyTTL.components.seconds), streamCap,
            ] + admission)
        guard let parts = reply.array, parts.count >= 2, let outcome = parts[0].string else {
            throw RedisError.server("ERR unexpected reply from enqueue")
        }
        func usage(from index: Int) -> QuotaUsage? {
            guard parts.count > index + 2, let limit = parts[index].int, let used = parts[index + 1].int, let pending = parts[index + 2].int,
                used >= 0
            else { return nil }
            return QuotaUsage(limit: limit < 0 ? nil : Int(limit), used: Int(used), pending: Int(pending))
        }
        if outcome == "denied" {
            guard let reason = parts[1].string.flatMap(QuotaDenial.Reason.init(rawValue:)), let usage = usage(from: 2),
                parts.count > 6, let retryAfter = parts[5].int
            else { throw RedisError.server("ERR unexpected denial from enqueue") }
            let blockReason = parts[6].string.flatMap { $0.isEmpty ? nil : $0 }
            return .denied(QuotaDenial(reason: reason, usage: usage, retryAfter: .milliseconds(retryAfter), blockReason: blockReason))
        }
        guard let id = parts[1].string.flatMap(JobID.init(validating:)) else { throw RedisError.server("ERR unexpected reply from enqueue") }
        switch outcome {
        case "created": return .created(id, quota: usage(from: 2))
        case "replayed": return .replayed(id)
        default: return .conflict(id)
        }
    }

    /// The job as Redis holds it, if it belongs to this tenant and identity.
    public func snapshot(_ id: JobID, tenant: TenantID, identity: Identity? = nil) async throws -> JobSnapshot? {
        guard let job = try await snapshots([id]).first ?? nil, job.tenant == tenant else { return nil }
        if let identity, job.identity != identity { return nil }
        return job
    }

    /// Several jobs in one round trip, nil where a job is gone.
    public func snapshots(_ ids: [JobID]) async throws -> [JobSnapshot?] {
        guard !ids.isEmpty else { return [] }
        let replies = try await redis.pipeline(ids.map { ["HGETALL", keys.job($0)] })
        return replies.map { reply in
            guard let values = reply.array else { return nil }
            var fields: [String: String] = [:]
            for index in stride(from: 0, to: values.count - 1, by: 2) {
                if let name = values[index].string { fields[name] = values[index + 1].string }
            }
            return JobSnapshot(fields: fields)
        }
    }

    /// What a cancellation did.
    public enum CancelOutcome: Sendable, Equatable {
        /// It had not started: it is cancelled now.
        case cancelled
        /// It is running: its worker is told within a second and stops.
        case requested
        /// It had already finished in this state.
        case alreadyFinished(JobState)
        case notFound
    }

    /// Cancels the job of this tenant and identity.
    public func cancel(_ id: JobID, tenant: TenantID, identity: Identity) async throws -> CancelOutcome {
        let reply = try await redis.evaluate(
            scripts.cancel, keys: [keys.job(id), keys.delayed],
            arguments: [keys.base, id.rawValue, tenant.rawValue, identity.rawValue, streamCap])
        let parts = reply.array?.compactMap(\.string) ?? []
        switch parts.first {
        case "cancelled": return .cancelled
        case "requested": return .requested
        case "finished": return parts.dropFirst().first.flatMap(JobState.init(rawValue:)).map(CancelOutcome.alreadyFinished) ?? .notFound
        default: return .notFound
        }
    }

    /// Whether Redis answers.
    public func ping() async throws {
        try await redis.send(["PING"])
    }
}
