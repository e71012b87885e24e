public import KilnCore
import KilnKeys
import RedisClient

/// The jobs of a namespace: every state change of a job is one atomic Lua script on the Redis shard that holds it.
/// The API submits, reads, cancels and follows jobs through it (``SubmissionQueue``); workers claim, renew, settle
/// and record them (``WorkSource``).
public struct JobQueue: NamespaceRole {
    let namespace: RedisNamespace

    public init(_ namespace: RedisNamespace) {
        self.namespace = namespace
    }

    /// Admits and enqueues a job on the shard of its quota subject (its identity, when unmetered), or finds the one
    /// its idempotency key already made (a replay is not charged again).
    public func enqueue(_ submission: Submission) async throws -> EnqueueOutcome {
        let shard = shards.shard(tenant: submission.tenant, owner: submission.charge?.subject ?? submission.identity.rawValue)
        let call = EnqueueCall(keySpace: shards.all[shard], id: JobID(shard: shard), submission: submission, configuration: configuration)
        return try EnqueueCall.outcome(of: try await redis.evaluate(call.call(scripts.enqueue)))
    }

    /// The job as Redis holds it, if it belongs to this tenant and identity.
    public func snapshot(_ id: JobID, tenant: TenantID, identity: Identity? = nil) async throws -> JobSnapshot? {
        guard let job = try await snapshots([id]).first ?? nil, job.tenant == tenant else { return nil }
        if let identity, job.identity != identity { return nil }
        return job
    }

    /// Several jobs in one round trip (a pipeline per Redis node), nil where a job is gone.
    public func snapshots(_ ids: [JobID]) async throws -> [JobSnapshot?] {
        let located = ids.map { id in shards.keys(of: id).map { $0.job(id) } }
        let keys = located.compactMap { $0 }
        guard !keys.isEmpty else { return ids.map { _ in nil } }
        var replies = try await redis.pipeline(keys.map { ["HGETALL", $0] }).makeIterator()
        return located.map { key in
            guard key != nil, let reply = replies.next(), reply.array != nil else { return nil }
            return JobSnapshot(fields: reply.fields)
        }
    }

    /// Cancels the job of this tenant and identity.
    public func cancel(_ id: JobID, tenant: TenantID, identity: Identity) async throws -> CancelOutcome {
        guard let keys = shards.keys(of: id) else { return .notFound }
        let call = CancelCall(keySpace: keys, id: id, tenant: tenant, identity: identity)
        return try CancelCall.outcome(of: try await redis.evaluate(call.call(scripts.cancel)))
    }
}
