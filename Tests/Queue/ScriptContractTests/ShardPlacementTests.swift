import KilnCore
import KilnKeys
@testable import KilnQueue
import RedisClient
import Testing

/// Where a namespace of several shards puts what, and how a worker shares a claim among them.
@Suite struct ShardPlacementTests {
    private static func shards(_ count: Int, spread: [String: Int] = [:]) throws -> QueueShards {
        var configuration = QueueConfiguration()
        configuration.namespace = "ns"
        configuration.shards = count
        configuration.tenantShards = spread
        return try QueueShards(configuration)
    }

    @Test func oneShardKeepsTheNamespacesOwnTagAndSeveralNumberTheirs() throws {
        #expect(try Self.shards(1).all.map(\.base) == ["{ns}"])
        let bases = try Self.shards(3).all.map(\.base)
        #expect(bases.enumerated().allSatisfy { $0.element.hasPrefix("{ns:\($0.offset)") })
    }

    @Test(arguments: [3, 4, 16, 48])
    func eachShardsTagFallsInItsShareOfTheSlotsSoEveryMasterHoldsAsMany(count: Int) throws {
        // A cluster made by `redis-cli --cluster create` gives each master an equal range of slots.
        for (index, keys) in try Self.shards(count).all.enumerated() {
            let slot = RedisKeySlot.of(keys.base)
            #expect(slot * count / RedisKeySlot.count == index, "\(keys.base) is in slot \(slot)")
        }
        let acme = try #require(TenantID(validating: "acme"))
        #expect(try Self.shards(1).shard(tenant: acme, owner: "anyone") == 0)
    }

    @Test func aSmallTenantLivesOnOneShardAndASpreadOneOnAsManyAsItIsGiven() throws {
        let shards = try Self.shards(8, spread: ["big": 3])
        let small = try #require(TenantID(validating: "small"))
        let big = try #require(TenantID(validating: "big"))
        let owners = (0..<200).map { "user-\($0)" }
        #expect(Set(owners.map { shards.shard(tenant: small, owner: $0) }).count == 1)
        let bigShards = Set(owners.map { shards.shard(tenant: big, owner: $0) })
        #expect(bigShards.count == 3)
        // Neighbours of the tenant's home shard, wrapping round.
        let home = shards.shard(tenant: small, owner: "x")
        #expect(home == Int(QueueShards.stableHash("small") % 8))
    }

    @Test func placementIsTheSameInEveryProcessAndRelease() throws {
        // FNV-1a's published test vectors: a placement that changed would strand every identity's quota and jobs.
        #expect(QueueShards.stableHash("") == 0xcbf2_9ce4_8422_2325)
        #expect(QueueShards.stableHash("a") == 0xaf63_dc4c_8601_ec8c)
        #expect(QueueShards.stableHash("foobar") == 0x8594_4171_f739_67e8)
        let first = try Self.shards(5, spread: ["t": 5])
        let second = try Self.shards(5, spread: ["t": 5])
        let tenant = try #require(TenantID(validating: "t"))
        for owner in ["a", "pair:1", "user-42"] {
            #expect(first.shard(tenant: tenant, owner: owner) == second.shard(tenant: tenant, owner: owner))
        }
    }

    @Test func aJobIsFoundOnTheShardItsIdNamesAndNowhereElse() throws {
        let shards = try Self.shards(3)
        #expect(shards.keys(of: JobID(shard: 2)) == shards.all[2])
        #expect(shards.keys(of: JobID(shard: 3)) == nil, "an id of a shard this namespace does not have names no job here")
    }

    @Test(arguments: [0, JobID.shardLimit + 1])
    func aShardCountOutOfRangeIsRefused(count: Int) {
        #expect(throws: QueueConfigurationError.self) { try Self.shards(count) }
    }

    @Test func aTenantSpreadOverNoShardIsRefused() {
        #expect(throws: QueueConfigurationError.self) { try Self.shards(3, spread: ["acme": 0]) }
    }

    @Test func aClaimIsSharedByTheWeightOfEachShardsWaitingTenants() {
        let heavy = ShardClaimBalancer.Candidate(shard: 0, backlog: ShardBacklog(waitingWeight: 3, oldestWait: .milliseconds(5)))
        let light = ShardClaimBalancer.Candidate(shard: 1, backlog: ShardBacklog(waitingWeight: 1, oldestWait: .milliseconds(900)))
        let shares = ShardClaimBalancer.share(40, among: [heavy, light])
        #expect(shares.values.reduce(0, +) == 40)
        #expect(shares[0] == 30)
        #expect(shares[1] == 10)
    }

    @Test func aShardNotVisitedYetIsAskedForOneJobToLearnWhatItHolds() {
        let known = ShardClaimBalancer.Candidate(shard: 0, backlog: ShardBacklog(waitingWeight: 2, oldestWait: .zero))
        let unknown = ShardClaimBalancer.Candidate(shard: 1, backlog: nil)
        #expect(ShardClaimBalancer.share(10, among: [known, unknown]) == [0: 9, 1: 1])
    }

    @Test func aBatchSmallerThanTheShardsGoesToThoseThatWaitedLongest() {
        let candidates = [(0, 10), (1, 700), (2, 300)].map {
            ShardClaimBalancer.Candidate(shard: $0.0, backlog: ShardBacklog(waitingWeight: 50, oldestWait: .milliseconds($0.1)))
        }
        #expect(ShardClaimBalancer.share(2, among: candidates) == [1: 1, 2: 1])
    }
}
