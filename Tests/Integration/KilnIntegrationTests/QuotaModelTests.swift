import Foundation
import KilnCore
import KilnPolicy
import KilnQueue
import Testing

/// Random sequences of submissions, claims, successes, failures, cancellations and repeated settles against the
/// real scripts, checked after every step against a model of the quota kept in memory: Redis's counters equal the
/// model's, and the day never admits more than its limit.
@Suite struct QuotaModelTests {
    /// A deterministic generator (SplitMix64), so a failing sequence can be replayed from its seed.
    struct SplitMix: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    /// The quota as it should be.
    struct Model {
        let limit = 7
        let refundCap = 3
        var used = 0
        var pending = 0
        var refunded = 0
        var queued: [(JobID, cost: Int)] = []
        var running: [(ClaimedJob, cost: Int)] = []

        mutating func release(_ cost: Int) {
            pending -= cost
            if refunded + cost <= refundCap { refunded += cost } else { used += cost }
        }
    }

    @Test(arguments: [1, 2, 3, 4] as [UInt64])
    func randomSequencesKeepRedisEqualToTheModel(seed: UInt64) async throws {
        // The model's running jobs hold their leases for the whole sequence, however slowly a loaded machine runs it.
        var configuration = QueueConfiguration()
        configuration.leaseDuration = .seconds(600)
        try await Harness.with(configuration) { harness in
            var random = SplitMix(state: seed)
            var model = Model()
            let tenant = try #require(TenantID(validating: "a"))
            let acme = try #require(TenantID(validating: "acme"))
            let policy = try #require(try PolicySet.parse(Data(AbuseTests.policy().utf8))[acme])
            let identity = try #require(Identity(validating: "user-1"))
            let day = policy.dayWindow(containing: Date())
            func charge(_ cost: Int) -> QuotaCharge {
                QuotaCharge(
                    subject: "user-1", quotaClass: .text, cost: cost, limit: model.limit, day: day,
                    runningCap: 1000, device: nil, cooldown: .zero, refundCap: model.refundCap, tier: policy.lowestTier, ip: nil, maxDevices: 4,
                    abuse: policy.abuse)
            }
            func settle(_ job: ClaimedJob, _ outcome: Settlement.Outcome) async throws -> SettledAttempt? {
                try await harness.queue.settle([Settlement(job: job.id, attempt: job.attempt, outcome: outcome)]).first ?? nil
            }
            var admitted = 0
            for step in 0..<200 {
                switch Int.random(in: 0..<6, using: &random) {
                case 0, 1:
                    let cost = Int.random(in: 1...2, using: &random)
                    var submission = QueueEngineTests.submission("a", kind: "diag.sleep", maxAttempts: 1)
                    submission.charge = charge(cost)
                    let outcome = try await harness.queue.enqueue(submission)
                    if model.used + model.pending + cost <= model.limit {
                        guard case .created(let id, _) = outcome else { throw TestFailure("step \(step): \(outcome), expected admitted") }
                        model.pending += cost
                        model.queued.append((id, cost))
                        admitted += cost
                    } else {
                        guard case .denied = outcome else { throw TestFailure("step \(step): \(outcome), expected denied") }
                    }
                case 2 where !model.queued.isEmpty:
                    let claimed = try await harness.queue.settleAndClaim([], jobClass: .io, count: 1, worker: "w").claimed.jobs
                    let job = try #require(claimed.first)
                    let index = try #require(model.queued.firstIndex { $0.0 == job.id })
                    model.running.append((job, model.queued.remove(at: index).cost))
                case 3 where !model.running.isEmpty:
                    let (job, cost) = model.running.removeFirst()
                    #expect(try await settle(job, .succeeded(result: "{}"))?.state == .succeeded)
                    model.pending -= cost
                    model.used += cost
                    // A repeated delivery of the same settle changes nothing.
                    #expect(try await settle(job, .succeeded(result: "{}")) == nil)
                case 4 where !model.running.isEmpty:
                    let (job, cost) = model.running.removeFirst()
                    #expect(try await settle(job, .failed(code: "boom", message: "boom"))?.state == .failed)
                    model.release(cost)
                case 5 where !model.queued.isEmpty:
                    let (id, cost) = model.queued.removeFirst()
                    #expect(try await harness.queue.cancel(id, tenant: tenant, identity: identity) == .cancelled)
                    model.release(cost)
                default:
                    continue
                }
                let counters = try await harness.redisNamespace.quota.counters(tenant: tenant, subject: "user-1", day: day.label)
                #expect(counters["used:text", default: 0] == model.used, "step \(step), seed \(seed)")
                #expect(counters["rsv:text", default: 0] == model.pending, "step \(step), seed \(seed)")
                #expect(counters["refunded", default: 0] == model.refunded, "step \(step), seed \(seed)")
                #expect(model.used + model.pending <= model.limit)
            }
            #expect(admitted > 0)
        }
    }
}
