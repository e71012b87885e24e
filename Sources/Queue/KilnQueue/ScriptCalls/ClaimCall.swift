import KilnCore
import KilnKeys
import RedisClient

/// `claim.lua`: claims up to `count` jobs of one class, rotating across tenants by weight.
struct ClaimCall: RedisScriptContract {
    static let scriptName = "claim"

    var keySpace: KeySpace
    var jobClass: JobClass
    var count: Int
    var worker: String
    var configuration: QueueConfiguration
    /// Whether the reply says what the shard still holds, for a worker that claims across shards.
    var reportsBacklog: Bool

    static let keys: [RedisScriptField<Self>] = [
        .init("active") { $0.keySpace.active($0.jobClass) },
        .init("vclock") { $0.keySpace.virtualClock($0.jobClass) },
        // Declared for Redis Cluster: `wake()` in common.lua writes it.
        .init("wake_list") { $0.keySpace.wake($0.jobClass) },
        .init("inflight") { $0.keySpace.inflight },
        .init("delayed") { $0.keySpace.delayed },
        .init("paused") { $0.keySpace.paused },
    ]

    static let arguments: [RedisScriptField<Self>] = [
        .init("base") { $0.keySpace.base },
        .init("class") { $0.jobClass.rawValue },
        .init("lease_ms") { String($0.configuration.leaseDuration.milliseconds) },
        .init("count") { String($0.count) },
        .init("worker") { $0.worker },
        .init("stream_cap") { String($0.configuration.streamCap) },
        .init("sweep_limit") { String($0.configuration.sweepLimit) },
        .init("max_lease_losses") { String($0.configuration.maxLeaseLosses) },
        .init("report_backlog") { $0.reportsBacklog ? "1" : "0" },
    ]

    static let replies = [
        RedisReplyShape(
            fields: ["next_wake_in_ms", "claimed_count", "started_ms", "waiting_weight", "oldest_created_ms", "took_recovered"],
            itemFields: ["id", "attempt", "tenant", "identity", "kind", "input", "timeout_ms", "created_ms", "max_attempts", "tries", "rank", "tier"])
    ]

    static func batch(of reply: RedisValue) throws -> ClaimBatch {
        let reply = try read(reply)
        let started = try reply.int("started_ms")
        let jobs = try reply.items.map { job in
            ClaimedJob(
                id: try job.decode("id", JobID.init(validating:)),
                attempt: Int(try job.int("attempt")),
                tenant: try job.decode("tenant", TenantID.init(validating:)),
                identity: try job.decode("identity", Identity.init(validating:)),
                kind: try job.string("kind"),
                input: try job.string("input"),
                timeout: .milliseconds(try job.int("timeout_ms")),
                createdAtMilliseconds: try job.int("created_ms"),
                maxAttempts: Int(try job.int("max_attempts")),
                tries: Int(try job.int("tries")),
                priority: try job.decode("rank") { Int($0).flatMap(Priority.init(rank:)) },
                startedAtMilliseconds: started,
                tier: try job.text("tier"))
        }
        let next = try reply.int("next_wake_in_ms")
        return ClaimBatch(jobs: jobs, nextWakeIn: next < 0 ? nil : .milliseconds(next))
    }

    /// What the shard still holds after the claim, when the call asked (``reportsBacklog``).
    static func backlog(of reply: RedisValue) throws -> ShardBacklog {
        let reply = try read(reply)
        let oldest = try reply.int("oldest_created_ms")
        return ShardBacklog(
            waitingWeight: Int(max(try reply.int("waiting_weight"), 0)),
            oldestWait: oldest < 0 ? .zero : .milliseconds(max(try reply.int("started_ms") - oldest, 0)),
            tookRecovered: try reply.int("took_recovered") == 1)
    }
}
