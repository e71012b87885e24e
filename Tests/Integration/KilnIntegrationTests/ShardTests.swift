import Foundation
import KilnCore
import KilnJSON
import KilnQueue
import KilnStore
import KilnWorker
import Testing

/// A namespace spread over three shards on one Redis: each tenant's jobs on its shard, every job run and recorded once,
/// claims shared fairly, and an idle worker woken by a job on any shard. (`RedisClusterTests` runs the same on a
/// cluster; the queue and admission suites run on three shards too, with `KILN_TEST_REDIS_SHARDS=3`.)
@Suite struct ShardTests {
    static var threeShards: QueueConfiguration {
        var configuration = QueueConfiguration()
        configuration.shards = 3
        return configuration
    }

    /// A tenant name whose identities live on each shard, in shard order.
    static func tenantPerShard(_ harness: Harness) throws -> [String] {
        let shards = harness.redisNamespace.shards
        var found: [Int: String] = [:]
        for index in 0..<1_000 where found.count < shards.count {
            let name = "tenant-\(index)"
            let shard = shards.shard(tenant: try #require(TenantID(validating: name)), owner: "user-1")
            if found[shard] == nil { found[shard] = name }
        }
        return try (0..<shards.count).map { try #require(found[$0], "no tenant name found for shard \($0)") }
    }

    @Test func tenantsOnEveryShardHaveEachJobRunAndRecordedOnce() async throws {
        try await Harness.with(Self.threeShards) { harness in
            var clients: [Harness.Client] = []
            for name in try Self.tenantPerShard(harness) { clients.append(try await harness.tenant(name)) }
            try await harness.startAPI()
            harness.startWorker()
            var submitted: [(JobID, Harness.Client)] = []
            for client in clients {
                for index in 0..<15 {
                    submitted.append((try await harness.submit(#"{"kind":"diag.echo","input":{"n":\#(index)}}"#, as: client), client))
                }
            }
            #expect(Set(submitted.map(\.0.shard)) == [0, 1, 2], "each tenant's jobs are on its own shard")
            for (id, client) in submitted {
                #expect(try await harness.awaitFinished(id, as: client)["status"]?.stringValue == "succeeded")
            }
            let store = JobStore(pool: harness.database)
            for (id, client) in submitted {
                let record = try #require(
                    try await Eventually.value { try await store.find(id: id, tenant: client.tenant.id) }, "the recorder writes in batches")
                #expect(record.state == .succeeded)
                #expect(record.attempt == 1, "run once")
            }
        }
    }

    @Test func aShardWithAFewJobsIsServedBesideOneWithABacklog() async throws {
        try await Harness.with(Self.threeShards) { harness in
            let tenants = try Self.tenantPerShard(harness)
            for _ in 0..<300 { _ = try await harness.queue.enqueue(QueueEngineTests.submission(tenants[0])) }
            for _ in 0..<20 { _ = try await harness.queue.enqueue(QueueEngineTests.submission(tenants[1])) }
            var order: [String] = []
            var finished: [Settlement] = []
            while order.count < 80 {
                let (_, batch) = try await harness.queue.settleAndClaim(finished, jobClass: .io, count: 10, worker: "w")
                finished = batch.jobs.map { Settlement(job: $0.id, attempt: $0.attempt, outcome: .succeeded(result: "{}")) }
                order += batch.jobs.map(\.tenant.rawValue)
            }
            // Both shards' tenants weigh 1: the small shard gets about half of each claim until it is empty.
            let lastOfSmall = try #require(order.lastIndex(of: tenants[1]))
            #expect(order.filter { $0 == tenants[1] }.count == 20)
            #expect(lastOfSmall < 50, "the 20 jobs of the small shard waited behind the backlog: the last was claim \(lastOfSmall + 1)")
        }
    }

    @Test func aWorkerIdleOnEveryShardWakesForAJobOnAnyOfThem() async throws {
        try await Harness.with(Self.threeShards) { harness in
            let tenants = try Self.tenantPerShard(harness)
            let client = try await harness.tenant(tenants[2])
            try await harness.startAPI()
            // It would otherwise sleep longer than the wait below allows: only the shard's wake-up can start the job.
            harness.startWorker { $0.maxIdleWait = .seconds(600) }
            try await Task.sleep(for: .milliseconds(500))
            let id = try await harness.submit(#"{"kind":"diag.echo","input":{}}"#, as: client)
            #expect(id.shard == 2)
            #expect(try await harness.awaitFinished(id, as: client, within: .seconds(60))["status"]?.stringValue == "succeeded")
        }
    }
}
