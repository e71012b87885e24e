public import KilnCore
public import KilnQueue
public import KilnStore

/// Erases everything Kiln holds of one identity of one tenant, in Redis, PostgreSQL and the object store
/// (docs/privacy.md). Idempotent: a repeated call finds nothing more, or what was still being written last time.
public struct IdentityEraser: Sendable {
    private let redis: QueueEraser
    private let standings: StandingCache
    private let records: IdentityRecords

    public init(namespace: RedisNamespace, records: IdentityRecords) {
        self.redis = namespace.eraser
        self.standings = namespace.standings
        self.records = records
    }

    /// Stops the identity's unfinished jobs and deletes its data. Jobs still running (or finished and not yet
    /// recorded) are reported as pending: call again once they have ended, within seconds, to complete it. The
    /// identity's Redis keys are deleted only then, since its running jobs still count on them.
    ///
    /// Each step can be repeated, and the order keeps every piece findable until it is gone: the keys that point at
    /// jobs (idempotency records, cooldowns) go while the jobs can still be listed, the devices of its partner pools
    /// while its links still name the pools, the jobs' Redis copies while PostgreSQL still lists them, and the keys
    /// named by the identity last.
    public func erase(identity: Identity, tenant: TenantID) async throws -> Erasure {
        let live = try await redis.jobs(of: identity, tenant: tenant)
        let all = Set(live).union(try await records.jobs(of: identity, tenant: tenant))
        var removed = try await redis.erasePointers(to: all, of: identity, tenant: tenant)
        // Devices it used while linked are its pools'; the links that name the pools go with its records below.
        removed += try await redis.eraseDevices(ofPools: try await records.pools(of: identity, tenant: tenant), tenant: tenant)
        let jobs = try await redis.erase(live, of: identity, tenant: tenant)
        let erased = try await records.erase(identity: identity, tenant: tenant, jobs: all.sorted { $0.rawValue < $1.rawValue })
        // PostgreSQL holds the partners' identities as text; each was an identity when it was linked.
        try await standings.forget(tenant: tenant, identities: erased.formerPartners.compactMap(Identity.init(validating:)))
        if jobs.pending.isEmpty {
            removed += try await redis.eraseKeys(of: identity, tenant: tenant)
        }
        return Erasure(pendingJobs: jobs.pending, records: erased, redisKeys: removed)
    }

    /// Erases, then repeats while jobs are pending, up to `attempts` times `pause` apart (`kiln identity erase`: an
    /// operator wants one command that finishes the job). Returns what all the calls removed together.
    public func eraseCompletely(identity: Identity, tenant: TenantID, attempts: Int, pause: Duration) async throws -> Erasure {
        var erasure = try await erase(identity: identity, tenant: tenant)
        var attempt = 1
        while !erasure.isComplete, attempt < attempts {
            try await Task.sleep(for: pause)
            erasure = erasure.followed(by: try await erase(identity: identity, tenant: tenant))
            attempt += 1
        }
        return erasure
    }
}
