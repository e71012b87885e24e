public import KilnCore
public import KilnKeys
public import RedisClient

/// The queue engine: every state change of a job is one atomic Lua script on Redis.
public final class JobQueue: Sendable {
    public let configuration: QueueConfiguration
    /// The names of every key the queue uses.
    public let keys: KeySpace
    let redis: RedisPool
    /// Connections for blocking reads (wake-ups, event streams), kept apart so they never starve the others.
    let blockingRedis: RedisPool
    let scripts: QueueScripts

    public init(redis: RedisPool, blockingRedis: RedisPool, configuration: QueueConfiguration = QueueConfiguration()) throws {
        self.configuration = configuration
        self.keys = KeySpace(namespace: configuration.namespace)
        self.redis = redis
        self.blockingRedis = blockingRedis
        self.scripts = try QueueScripts()
    }

    /// Loads the scripts, so a broken one stops the process at start rather than at its first call.
    public func prepare() async throws {
        try await redis.load(scripts.all)
    }

    /// Admits and enqueues a job, or finds the one its idempotency key already made (a replay is not charged again).
    public func enqueue(_ submission: Submission) async throws -> EnqueueOutcome {
        let call = EnqueueCall(keySpace: keys, submission: submission, configuration: configuration)
        return try EnqueueCall.outcome(of: try await redis.evaluate(call.call(scripts.enqueue)))
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
        let call = CancelCall(keySpace: keys, id: id, tenant: tenant, identity: identity, configuration: configuration)
        return try CancelCall.outcome(of: try await redis.evaluate(call.call(scripts.cancel)))
    }

    /// Whether Redis answers.
    public func ping() async throws {
        try await redis.send(["PING"])
    }
}
