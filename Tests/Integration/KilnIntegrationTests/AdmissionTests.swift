import CurlClient
import Foundation
import KilnAdmission
import KilnCore
import KilnJSON
import KilnPolicy
import KilnKeys
import KilnQueue
import KilnStore
import KilnWorker
import RedisClient
import Locking
import Testing

/// Admission through the real API and Redis: exact daily quotas under concurrency, the running cap, device cooldowns,
/// commits and refunds, tiers, and quota days in the tenant's time zone.
@Suite struct AdmissionTests {
    /// `acme`'s policy: free users get 3 text and 5 image units a day; `diag.fail` is an image job (to test refunds).
    static let policy = """
        {"acme": {
          "identity_modes": ["trusted_server"], "reset_time_zone": "America/Los_Angeles", "safety": "standard",
          "tiers": {
            "free": {"lowest": true, "daily": {"text": 3, "image": 5}, "device_cooldown_seconds": {"image": 60},
                     "running_jobs": 100, "refund_cap": 1, "max_devices_per_day": 4, "excluded_kinds": ["diag.sleep"]},
            "capped": {"daily": {"text": 1000, "image": 5}, "running_jobs": 2, "refund_cap": 1, "max_devices_per_day": 4},
            "pro": {"daily": {"text": 1000, "image": 50}, "running_jobs": 100, "refund_cap": 20, "max_devices_per_day": 8}
          },
          "kinds": {"diag.echo": {"class": "text", "cost": 1}, "diag.sleep": {"class": "text", "cost": 1},
                    "diag.fail": {"class": "image", "cost": 1, "cost_by_tier": {"capped": 2}}},
          "abuse": {"shadow_mode": true, "max_identities_per_device_per_day": 3,
                    "identity_velocity": {"count": 10, "period_seconds": 60, "burst": 5},
                    "ip_velocity": {"count": 60, "period_seconds": 60, "burst": 30},
                    "refund_ratio": {"min_count": 3, "ratio": 0.5}, "safety_rejections": {"min_count": 3, "ratio": 0.3},
                    "escalation": {"cooldown_seconds": 600, "block_seconds": 86400}}
        }}
        """

    static let echo = #"{"kind":"diag.echo","input":{"message":"hi"}}"#

    static func start(_ harness: Harness) async throws -> Harness.Client {
        try harness.usePolicies(policy)
        let client = try await harness.tenant("acme")
        try await harness.startAPI()
        return client
    }

    static func post(
        _ harness: Harness, _ client: Harness.Client, _ body: String = echo, identity: String = "user-1",
        headers: [(String, String)] = []
    ) async throws -> (status: Int, json: JSONValue?, response: HTTPResponse) {
        try await harness.send(try harness.request("POST", "/v1/jobs", as: client, identity: identity, body: body, headers: headers))
    }

    static func quota(_ harness: Harness, _ client: Harness.Client, identity: String = "user-1", tier: String? = nil) async throws -> JSONValue {
        let headers = tier.map { [("Kiln-Tier", $0)] } ?? []
        return try #require(try await harness.send(try harness.request("GET", "/v1/quota", as: client, identity: identity, headers: headers)).json)
    }

    @Test func fiftyConcurrentSubmissionsAdmitExactlyTheDailyLimit() async throws {
        try await Harness.with { harness in
            let client = try await Self.start(harness)
            let statuses = try await withThrowingTaskGroup(of: (Int, JSONValue?).self) { group in
                for _ in 0..<50 {
                    group.addTask {
                        let reply = try await Self.post(harness, client)
                        return (reply.status, reply.json)
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(statuses.filter { $0.0 == 202 }.count == 3)
            let denials = statuses.filter { $0.0 == 429 }.compactMap(\.1)
            #expect(denials.count == 47)
            #expect(denials.allSatisfy { $0["reason"]?.stringValue == "daily_quota_exhausted" && $0["remaining"] == .number(0) })
            #expect(denials.first?["limit"] == .number(3))
            #expect(denials.first?["upgrade_available"] == .bool(true))

            let quota = try await Self.quota(harness, client)
            #expect(quota["classes"]?["text"]?["pending"] == .number(3))
            #expect(quota["classes"]?["text"]?["remaining"] == .number(0))
            #expect(quota["unfinished_jobs"]?["count"] == .number(3))
            // Another identity has its own pool.
            #expect(try await Self.post(harness, client, identity: "user-2").status == 202)
        }
    }

    @Test func aDenialSaysWhenToComeBackAndAnAcceptanceWhatIsLeft() async throws {
        try await Harness.with { harness in
            let client = try await Self.start(harness)
            let accepted = try await Self.post(harness, client)
            #expect(accepted.response.headers["Kiln-Quota-Limit"] == "3")
            #expect(accepted.response.headers["Kiln-Quota-Remaining"] == "2")
            let reset = try #require(accepted.response.headers["Kiln-Quota-Reset"])
            for _ in 0..<2 { _ = try await Self.post(harness, client) }
            let sent = Date()
            let denied = try await Self.post(harness, client)
            let answered = Date()
            #expect(denied.status == 429)
            #expect(denied.response.headers["Content-Type"] == "application/problem+json")
            #expect(denied.json?["reset_at"]?.stringValue == reset)
            let retryAfter = Double(try #require(denied.response.headers["Retry-After"].flatMap(Int.init)))
            // The server counted the seconds to the reset, rounded up, at some instant between sending and answering (a
            // second either side for the reset's printed precision), however long the request took under load.
            let resetAt = try Date(reset, strategy: .iso8601)
            #expect(retryAfter >= resetAt.timeIntervalSince(answered).rounded(.down) - 1)
            #expect(retryAfter <= resetAt.timeIntervalSince(sent).rounded(.up) + 1)
        }
    }

    @Test func succeededJobsAreChargedAndFailuresRefundedUpToTheCap() async throws {
        try await Harness.with { harness in
            let client = try await Self.start(harness)
            harness.startWorker()
            let fail = #"{"kind":"diag.fail","input":{"permanent":true}}"#
            for device in ["d1", "d2"] {
                let reply = try await Self.post(harness, client, fail, headers: [("Kiln-Device", device)])
                #expect(reply.status == 202)
                guard case .string(let id)? = reply.json?["id"] else { throw TestFailure("no id") }
                _ = try await harness.awaitFinished(try #require(JobID(validating: id)), as: client)
            }
            // The first failure is refunded (refund cap 1); the second is charged.
            #expect(try await Self.quota(harness, client)["classes"]?["image"]?["used"] == .number(1))
            let id = try await harness.submit(Self.echo, as: client)
            _ = try await harness.awaitFinished(id, as: client)
            let text = try await Self.quota(harness, client)["classes"]?["text"]
            #expect(text?["used"] == .number(1))
            #expect(text?["pending"] == .number(0))
        }
    }

    static let sleep = #"{"kind":"diag.sleep","input":{"seconds":60}}"#
    static let capped = [("Kiln-Tier", "capped")]

    /// Fills the `capped` tier's two running slots with minute-long jobs, whose ids it returns.
    static func fillRunningCap(_ harness: Harness, _ client: Harness.Client) async throws -> [JobID] {
        var ids: [JobID] = []
        for _ in 0..<2 {
            let reply = try await post(harness, client, sleep, headers: capped)
            #expect(reply.status == 202)
            ids.append(try #require(JobID(validating: reply.json?["id"]?.stringValue ?? "")))
        }
        return ids
    }

    @Test func theRunningCapDeniesUntilAJobEnds() async throws {
        try await Harness.with { harness in
            let client = try await Self.start(harness)
            let (sleep, capped) = (Self.sleep, Self.capped)
            let ids = try await Self.fillRunningCap(harness, client)
            let third = try await Self.post(harness, client, sleep, headers: capped)
            #expect(third.status == 429)
            #expect(third.json?["reason"]?.stringValue == "concurrency_limit")
            #expect(third.response.headers["Retry-After"] != nil)
            // Cancelling a queued job ends it and frees its slot (and refunds its unit).
            #expect(try await harness.send(try harness.request("POST", "/v1/jobs/\(ids[0])/cancel", as: client)).status == 202)
            #expect(try await Self.post(harness, client, sleep, headers: capped).status == 202)
        }
    }

    @Test func aReservationWhoseJobIsGoneFreesItsSlotAndUnit() async throws {
        try await Harness.with { harness in
            let client = try await Self.start(harness)
            let (sleep, capped) = (Self.sleep, Self.capped)
            let ids = try await Self.fillRunningCap(harness, client)
            #expect(try await Self.post(harness, client, sleep, headers: capped).json?["reason"]?.stringValue == "concurrency_limit")
            // A job whose hash is gone without ending (a lost write, an operator's DEL) holds neither its slot nor its unit:
            // the next admission finds it missing beside the one still there.
            _ = try await harness.redis.send(["DEL", try harness.keys(tenant: "acme", owner: "user-1").job(ids[0])])
            #expect(try await Self.post(harness, client, sleep, headers: capped).status == 202)
            #expect(try await Self.quota(harness, client, tier: "capped")["classes"]?["text"]?["pending"] == .number(2))
            #expect(try await Self.post(harness, client, sleep, headers: capped).json?["reason"]?.stringValue == "concurrency_limit")
        }
    }

    @Test func aDeviceWaitsOutItsCooldownButNotAnotherDevice() async throws {
        try await Harness.with { harness in
            let client = try await Self.start(harness)
            let fail = #"{"kind":"diag.fail","input":{}}"#
            #expect(try await Self.post(harness, client, fail, headers: [("Kiln-Device", "phone")]).status == 202)
            let again = try await Self.post(harness, client, fail, headers: [("Kiln-Device", "phone")])
            #expect(again.status == 429)
            #expect(again.json?["reason"]?.stringValue == "device_cooldown")
            #expect((30...60).contains(Int(again.response.headers["Retry-After"] ?? "") ?? 0))
            #expect(try await Self.post(harness, client, fail, headers: [("Kiln-Device", "tablet")]).status == 202)
        }
    }

    @Test func tiersComeFromTheTrustedServerAndKindsCanBeReservedToThem() async throws {
        try await Harness.with { harness in
            let client = try await Self.start(harness)
            for _ in 0..<4 { #expect(try await Self.post(harness, client, headers: [("Kiln-Tier", "pro")]).status == 202) }
            #expect(try await Self.quota(harness, client, tier: "pro")["classes"]?["text"]?["remaining"] == .number(996))
            let unknown = try await Self.post(harness, client, headers: [("Kiln-Tier", "platinum")])
            #expect(unknown.status == 400)
            #expect(unknown.json?["code"]?.stringValue == "unknown_tier")
            let excluded = try await Self.post(harness, client, #"{"kind":"diag.sleep","input":{"seconds":1}}"#)
            #expect(excluded.status == 403)
            #expect(excluded.json?["code"]?.stringValue == "upgrade_required")
        }
    }

    @Test func aCostOfTwoIsDeniedWithOneUnitLeft() async throws {
        try await Harness.with { harness in
            let client = try await Self.start(harness)
            // Tier `capped` pays 2 image units a job, of 5 a day: two jobs, then 1 unit left, which is not enough.
            let fail = #"{"kind":"diag.fail","input":{}}"#
            let capped = [("Kiln-Tier", "capped")]
            #expect(try await Self.post(harness, client, fail, headers: capped).status == 202)
            #expect(try await Self.post(harness, client, fail, headers: capped).status == 202)
            let third = try await Self.post(harness, client, fail, headers: capped)
            #expect(third.json?["reason"]?.stringValue == "daily_quota_exhausted")
            #expect(third.json?["remaining"] == .number(1))
            #expect(try await Self.quota(harness, client, tier: "capped")["classes"]?["image"]?["pending"] == .number(4))
        }
    }

    @Test func aKilledWorkersReservationComesBackWhenItsJobDies() async throws {
        var configuration = QueueConfiguration()
        configuration.leaseDuration = .milliseconds(300)
        configuration.maxLeaseLosses = 3
        try await Harness.with(configuration) { harness in
            let client = try await Self.start(harness)
            let reply = try await Self.post(harness, client, Self.sleep, headers: Self.capped)
            #expect(reply.status == 202)
            // It is claimed three times by a worker that is never heard from again; each claim also recovers the lease
            // the previous one let expire.
            for attempt in 1...3 {
                _ = try #require(try await harness.queue.settleAndClaim([], jobClass: .io, count: 1, worker: "killed-\(attempt)").claimed.jobs.first)
                #expect(try await Self.quota(harness, client, tier: "capped")["classes"]?["text"]?["pending"] == .number(1))
                try await Task.sleep(for: .milliseconds(400))
            }
            // The next claim anywhere finds the third lease expired: the job is dead (it may be what kills its workers) and its
            // unit released.
            _ = try await harness.queue.settleAndClaim([], jobClass: .io, count: 1, worker: "other")
            let text = try await Self.quota(harness, client, tier: "capped")["classes"]?["text"]
            #expect(text?["pending"] == .number(0))
            #expect(text?["used"] == .number(0), "a job that died is refunded (within the refund cap)")
        }
    }

    @Test func aBlockedIdentityIsToldHowLongItLasts() async throws {
        try await Harness.with { harness in
            let client = try await Self.start(harness)
            // What abuse detection writes: a block with a reason and a time to live.
            let block = try harness.keys(tenant: "acme", owner: "user-1").block(try #require(TenantID(validating: "acme")), "user-1")
            _ = try await harness.redis.send(["SET", block, "refund_abuse", "EX", "600"])
            let blocked = try await Self.post(harness, client)
            #expect(blocked.status == 429)
            #expect(blocked.json?["reason"]?.stringValue == "temporarily_blocked")
            #expect((300...600).contains(Int(blocked.response.headers["Retry-After"] ?? "") ?? 0))
            #expect(try await Self.quota(harness, client)["classes"]?["text"]?["pending"] == .number(0))
        }
    }

    @Test func aReplayedSubmissionIsNotChargedAgain() async throws {
        try await Harness.with { harness in
            let client = try await Self.start(harness)
            let key = [("Idempotency-Key", "tap-1")]
            let first = try await Self.post(harness, client, headers: key)
            let second = try await Self.post(harness, client, headers: key)
            #expect(first.status == 202 && second.status == 202)
            #expect(first.json?["id"] == second.json?["id"])
            #expect(try await Self.quota(harness, client)["classes"]?["text"]?["pending"] == .number(1))
        }
    }

    @Test func theQuotaDayResetsAtMidnightInTheTenantsTimeZone() async throws {
        try await Harness.with { harness in
            let client = try await Self.start(harness)
            // 23:59:30 on 13 March 2027 in Los Angeles (PST, UTC−8); the next local midnight is 08:00 UTC. (A day to come:
            // the day's counters expire two days after it ends, by Redis's real clock.)
            let beforeMidnight = try Date("2027-03-14T07:59:30Z", strategy: .iso8601)
            harness.now.withLock { $0 = beforeMidnight }
            for _ in 0..<3 { #expect(try await Self.post(harness, client).status == 202) }
            let denied = try await Self.post(harness, client)
            #expect(denied.json?["reset_at"]?.stringValue == "2027-03-14T08:00:00Z")
            #expect(denied.response.headers["Retry-After"] == "30")
            harness.now.withLock { $0 = beforeMidnight.addingTimeInterval(31) }
            #expect(try await Self.post(harness, client).status == 202)
            let quota = try await Self.quota(harness, client)
            #expect(quota["day"]?.stringValue == "20270314")
            // The clocks go forward that night: the day lasts 23 hours.
            #expect(quota["reset_at"]?.stringValue == "2027-03-15T07:00:00Z")
        }
    }

    @Test func countersRedisLostAreRebuiltFromTheLedger() async throws {
        try await Harness.with { harness in
            let client = try await Self.start(harness)
            harness.startWorker()
            for body in [Self.echo, Self.echo, #"{"kind":"diag.fail","input":{"permanent":true}}"#] {
                _ = try await harness.awaitFinished(try await harness.submit(body, as: client), as: client)
            }
            while try await harness.redisNamespace.admin.stats().unrecorded > 0 { try await Task.sleep(for: .milliseconds(20)) }
            let day = try #require(try await Self.quota(harness, client)["day"]?.stringValue)
            let tenant = client.tenant.id
            // Redis loses the day's counters (a flush, or a failover that dropped them).
            _ = try await harness.redis.send(["DEL", try harness.keys(tenant: tenant.rawValue, owner: "user-1").quota(tenant, "user-1", day)])
            #expect(try await Self.quota(harness, client)["classes"]?["text"]?["used"] == .number(0))

            let reconciler = QuotaReconciler(quota: harness.redisNamespace.quota, ledger: QuotaLedger(pool: harness.database))
            let drifts = try await reconciler.reconcile(tenant: tenant, day: day, repair: false)
            #expect(drifts.contains(QuotaReconciler.Drift(subject: "user-1", counter: "used:text", redis: 0, ledger: 2)))
            #expect(drifts.contains(QuotaReconciler.Drift(subject: "user-1", counter: "refunded", redis: 0, ledger: 1)))
            _ = try await reconciler.reconcile(tenant: tenant, day: day, repair: true)
            #expect(try await reconciler.reconcile(tenant: tenant, day: day, repair: false).isEmpty)
            #expect(try await Self.quota(harness, client)["classes"]?["text"]?["used"] == .number(2))
            #expect(try await Self.post(harness, client).status == 202)
            #expect(try await Self.post(harness, client).json?["reason"]?.stringValue == "daily_quota_exhausted")
        }
    }

    @Test func anAttemptThatLostItsLeaseCannotCommit() async throws {
        var configuration = QueueConfiguration()
        configuration.leaseDuration = .milliseconds(300)
        try await Harness.with(configuration) { harness in
            let acme = try #require(TenantID(validating: "acme"))
            let policy = try #require(try PolicySet.parse(Data(Self.policy.utf8))[acme])
            let day = policy.dayWindow(containing: Date())
            let charge = QuotaCharge(
                subject: "user-1", quotaClass: .text, cost: 1, limit: 3, day: day,
                runningCap: 10, device: nil, cooldown: .zero, refundCap: 0, tier: policy.lowestTier, ip: nil, maxDevices: 4,
                abuse: policy.abuse)
            var submission = QueueEngineTests.submission("a")
            submission.charge = charge
            guard case .created(_, let usage) = try await harness.queue.enqueue(submission) else { throw TestFailure("not created") }
            #expect(usage == QuotaUsage(limit: 3, used: 0, pending: 1))
            let zombie = try #require(try await harness.queue.settleAndClaim([], jobClass: .io, count: 1, worker: "zombie").claimed.jobs.first)
            try await Task.sleep(for: .milliseconds(400))
            let live = try #require(try await harness.queue.settleAndClaim([], jobClass: .io, count: 1, worker: "live").claimed.jobs.first)
            let tenant = try #require(TenantID(validating: "a"))
            func used() async throws -> QuotaUsage? {
                try await harness.redisNamespace.quota.usage(tenant: tenant, subject: "user-1", day: day.label, limits: ["text": 3]).usage["text"]
            }
            #expect(try await harness.queue.settle([Settlement(job: zombie.id, attempt: zombie.attempt, outcome: .succeeded(result: "{}"))]) == [nil])
            #expect(try await used() == QuotaUsage(limit: 3, used: 0, pending: 1))
            _ = try await harness.queue.settle([Settlement(job: live.id, attempt: live.attempt, outcome: .succeeded(result: "{}"))])
            #expect(try await used() == QuotaUsage(limit: 3, used: 1, pending: 0))
            // Settling again changes nothing: the reservation is gone.
            _ = try await harness.queue.settle([Settlement(job: live.id, attempt: live.attempt, outcome: .succeeded(result: "{}"))])
            #expect(try await used() == QuotaUsage(limit: 3, used: 1, pending: 0))
        }
    }
}
