import CurlClient
import Foundation
import KilnAPI
import KilnCore
import KilnJSON
import KilnKeys
import KilnPolicy
import KilnPrivacy
import KilnQueue
import KilnStore
import PostgresClient
import RedisClient
import S3Client
import S3Fixtures
import Locking
import Testing

/// Erasure of an identity, against the real Redis, PostgreSQL and object stores (the local
/// directory, and S3 on moto): afterwards a search of every Redis key and value, every row of every table and every
/// object finds nothing of the identity, and everything of another one.
@Suite struct PrivacyTests {
    /// `acme` meters the echo and sleep kinds (so quota counters, reservations, device sets, velocities, a sleep's
    /// device cooldown and, past four devices, an abuse log entry exist) and keeps inputs 1 day, uploads 2, results 3, artifacts 4.
    static let policy = """
        {"acme": {
          "identity_modes": ["trusted_server"], "reset_time_zone": "America/Los_Angeles", "safety": "standard",
          "tiers": {"free": {"lowest": true, "daily": {"text": 100, "story": 100}, "device_cooldown_seconds": {"story": 3600},
                             "running_jobs": 100, "refund_cap": 10, "max_devices_per_day": 4}},
          "kinds": {"diag.echo": {"class": "text", "cost": 1}, "diag.sleep": {"class": "story", "cost": 1}},
          "abuse": {"shadow_mode": true, "max_identities_per_device_per_day": 3,
                    "identity_velocity": {"count": 1000, "period_seconds": 60, "burst": 100},
                    "ip_velocity": {"count": 1000, "period_seconds": 60, "burst": 100},
                    "refund_ratio": {"min_count": 3, "ratio": 0.5}, "safety_rejections": {"min_count": 3, "ratio": 0.3},
                    "escalation": {"cooldown_seconds": 600, "block_seconds": 86400}},
          "retention": {"inputs_days": 1, "uploads_days": 2, "results_days": 3, "artifacts_days": 4}
        }}
        """

    /// What one identity put into the three stores, and the strings that find it there.
    struct Footprint {
        let identity: String
        var jobs: [JobID] = []
        var uploads: [String] = []
        /// Text that is only in this identity's inputs, results, artifacts and uploads.
        let marker: String

        /// The devices only this identity used.
        var devices: [String] = []

        var needles: [String] { [identity, marker] + jobs.map(\.rawValue) + uploads + devices }
    }

    static func submit(
        _ harness: Harness, _ client: Harness.Client, _ footprint: inout Footprint, _ body: String, device: String, idempotencyKey: String? = nil
    ) async throws -> JobID {
        var headers = [("Kiln-Device", device)]
        if let idempotencyKey { headers.append(("Idempotency-Key", idempotencyKey)) }
        let reply = try await harness.send(
            try harness.request("POST", "/v1/jobs", as: client, identity: footprint.identity, body: body, headers: headers))
        try #require(reply.status == 202, "submission answered \(reply.status): \(String(describing: reply.json))")
        let id = try #require(reply.json?["id"]?.stringValue.flatMap(JobID.init(validating:)))
        footprint.jobs.append(id)
        return id
    }

    static func upload(_ harness: Harness, _ client: Harness.Client, _ footprint: inout Footprint) async throws {
        let request = HTTPRequest(
            method: "POST", url: try harness.apiURL + "/v1/uploads",
            headers: ["Authorization": "Bearer \(client.key)", "Kiln-Identity": footprint.identity, "Content-Type": "image/png"],
            body: Array("drawing by \(footprint.marker)".utf8))
        let reply = try await harness.send(request)
        try #require(reply.status == 201)
        footprint.uploads.append(try #require(reply.json?["id"]?.stringValue))
    }

    /// Finished jobs with artifacts (one under an idempotency key), uploads, devices (one shared with `shared`),
    /// an entitlement, a partner link and an invitation, provider usage, a campaign with a scene; with `unfinished`,
    /// also a delayed job and a running one; with `linkedDevice`, a job sent from that device once linked, which the
    /// pair's pool records.
    static func populate(
        _ harness: Harness, _ client: Harness.Client, identity: String, marker: String, devices: [String], unfinished: Bool,
        linkedDevice: String? = nil
    ) async throws -> Footprint {
        var footprint = Footprint(identity: identity, marker: marker)
        footprint.devices = devices.filter { $0 != "shared-dev" } + (linkedDevice.map { [$0] } ?? [])
        for (index, device) in devices.enumerated() {
            let input = index < 2 ? #"{"artifact":"\#(marker) artifact \#(index)"}"# : #"{"message":"\#(marker) message \#(index)"}"#
            _ = try await submit(
                harness, client, &footprint, #"{"kind":"diag.echo","input":\#(input)}"#, device: device,
                idempotencyKey: index == 0 ? "first-\(identity)" : nil)
        }
        try await upload(harness, client, &footprint)
        for id in footprint.jobs { _ = try await harness.awaitFinished(id, as: client, identity: identity) }
        while try await harness.redisNamespace.admin.stats().unrecorded > 0 { try await Task.sleep(for: .milliseconds(20)) }
        if unfinished {
            _ = try await submit(
                harness, client, &footprint, #"{"kind":"diag.echo","input":{"message":"\#(marker) later"},"delay_seconds":3600}"#, device: devices[0])
            let sleeper = try await submit(harness, client, &footprint, #"{"kind":"diag.sleep","input":{"seconds":600}}"#, device: devices[1])
            _ = try await harness.awaitRunning(sleeper, client.tenant.id)
        }
        let tenant = client.tenant.id.rawValue
        _ = try await harness.database.execute(
            "INSERT INTO entitlements (tenant_id, identity, tier, source, event_at) VALUES ($1, $2, 'free', 'revenuecat', now())", [tenant, identity])
        let pair = UUID()
        _ = try await harness.database.execute(
            """
            INSERT INTO partner_links (tenant_id, identity, pair_id, partner) VALUES ($1, $2, $3, $4), ($1, $4, $3, $2)
            """, [tenant, identity, pair, "partner-of-\(identity)"])
        if let linkedDevice {
            // The link changes the identity's standing: its pool is the pair's from the next job on.
            try await harness.redisNamespace.standings.forget(tenant: client.tenant.id, identities: [try #require(Identity(validating: identity))])
            let linked = try await submit(
                harness, client, &footprint, #"{"kind":"diag.echo","input":{"message":"\#(marker) linked"}}"#, device: linkedDevice)
            _ = try await harness.awaitFinished(linked, as: client, identity: identity)
            while try await harness.redisNamespace.admin.stats().unrecorded > 0 { try await Task.sleep(for: .milliseconds(20)) }
            // Every master's keys: on a cluster, the pair's shard may be on any.
            let pool = try await harness.redisNamespace.redis.sendToEveryMaster(["KEYS", "*:devs:\(tenant):pair:*"])
            try #require(pool.values.contains { $0.array?.isEmpty == false }, "the linked device was recorded under the pair's pool")
        }
        _ = try await harness.database.execute(
            "INSERT INTO partner_invitations (code, tenant_id, inviter, expires_at) VALUES ($1, $2, $3, now() + interval '1 hour')",
            ["code-\(identity)", tenant, identity])
        let campaigns = CampaignStore(pool: harness.database)
        let opening = JobID()
        let owner = try #require(Identity(validating: identity))
        let campaign = try #require(
            try await campaigns.create(
                opening, tenant: client.tenant.id, identity: owner, title: "\(marker) campaign", settings: #"{"setting": "\#(marker) world"}"#))
        let scene = NewScene(number: 1, title: nil, narrative: "\(marker) scene", planningBlock: "{}")
        #expect(try await campaigns.apply(scene, state: #"{"location": "\#(marker) chapel"}"#, to: campaign.id, job: opening))
        try await ProviderUsageStore(pool: harness.database).record(
            ProviderUsageRecord(
                job: footprint.jobs[0], tenant: client.tenant.id, attempt: 1, provider: "simulator", model: "m", inputTokens: 10, outputTokens: 20))
        return footprint
    }

    /// How the namespace's data was written when an erasure reads it (docs/compatibility.md).
    enum Written: CaseIterable {
        /// By this release, in the format it records: every job and pointer in its owner's index.
        case byThisRelease
        /// By a release of format 1, which kept no index: erasure walks the namespace.
        case byAnEarlierRelease
        /// By a release of format 1, then listed by `kiln data-format --record 2`.
        case byAnEarlierReleaseThenIndexed
    }

    /// Takes the namespace back to format 1 with no index, as an earlier release leaves it; with `indexing`, then runs
    /// `kiln data-format --record 2`.
    static func writeAsAnEarlierRelease(_ harness: Harness, indexing: Bool) async throws {
        let redis = harness.redisNamespace.redis
        _ = try await redis.send(["SET", harness.redisNamespace.shards.control.dataFormat, "1"])
        for shard in harness.redisNamespace.shards.all {
            for (_, reply) in try await redis.sendToEveryMaster(["KEYS", shard.prefix(.owned) + "*"]) {
                for key in reply.array?.compactMap(\.string) ?? [] { _ = try await redis.send(["DEL", key]) }
            }
        }
        guard indexing else { return }
        let command = try await AdminCommandTests.kiln(harness, ["data-format", "--record", "2", "--force"])
        #expect(command.status == 0, "\(command.output)")
        #expect(command.output.contains("recorded format 2"), "\(command.output)")
        #expect(try await harness.redisNamespace.ownedIndex.recordedFormat() == 2)
    }

    /// The two identities' data, the erasure of `erase-me…` through the API (first `202` while its job runs, then
    /// `200`), and what the three stores hold afterwards; then `kiln identity erase` for the other one.
    static func eraseAndSearch(_ harness: Harness, s3: S3ObjectClient? = nil, written: Written = .byThisRelease) async throws {
        try harness.usePolicies(policy)
        let client = try await harness.tenant("acme")
        try await harness.startAPI()
        harness.startWorker()
        let erased = try await populate(
            harness, client, identity: "erase-me-7f3a", marker: "E-SECRET-2c9d",
            devices: ["e-dev-1", "e-dev-2", "e-dev-3", "shared-dev", "e-dev-4"], unfinished: true, linkedDevice: "e-linked-dev")
        let kept = try await populate(
            harness, client, identity: "keep-me-91c2", marker: "K-SECRET-77ab", devices: ["shared-dev", "k-dev-1"], unfinished: false)
        let before = try await StoreContents.read(harness, s3: s3)
        #expect(!before.findings(of: ["abuse"]).filter { $0.contains(erased.identity) }.isEmpty, "the fifth device left an abuse log entry")
        #expect(!before.findings(of: [erased.marker]).isEmpty)
        switch written {
        case .byThisRelease: #expect(try await harness.redisNamespace.ownedIndex.isComplete())
        case .byAnEarlierRelease: try await writeAsAnEarlierRelease(harness, indexing: false)
        case .byAnEarlierReleaseThenIndexed: try await writeAsAnEarlierRelease(harness, indexing: true)
        }

        let erase = try harness.request("DELETE", "/v1/identity", as: client, identity: erased.identity)
        let first = try await harness.send(erase)
        #expect(first.status == 202)
        #expect(first.json?["status"]?.stringValue == "pending")
        #expect(first.json?["pending_jobs"] == .number(1))
        #expect(first.response.header("Retry-After") == "1")
        var answer = first
        _ = try await Eventually.holds(every: .milliseconds(100)) {
            answer = try await harness.send(erase)
            return answer.status != 202
        }
        #expect(answer.status == 200)
        #expect(answer.json?["status"]?.stringValue == "erased")
        // Again at once: refused before any walk of Redis, with when to try again.
        let again = try await harness.send(erase)
        #expect(again.status == 429 && again.json?["code"] == "erasure_rate_limited")
        #expect(again.response.header("Retry-After").flatMap(Int.init).map { (1...60).contains($0) } == true)

        let after = try await StoreContents.read(harness, s3: s3)
        #expect(after.findings(of: erased.needles) == [])
        #expect(after.findings(of: ["partner-of-\(erased.identity)"]) == [], "the partner's link named the erased identity")
        // The other identity's data is all there: records, artifacts' and uploads' bytes, Redis keys, its device set.
        for needle in kept.needles { #expect(!after.findings(of: [needle]).isEmpty, "\(needle) is still there") }
        #expect(after.lines.contains { $0.contains(":subs:acme:shared-dev:") && $0.contains(kept.identity) })
        #expect(after.lines.filter { $0.hasPrefix("jobs: ") }.count == kept.jobs.count)
        // The erased identity's provider usage stays as the tenant's spend, pointing at no job.
        let usage = try await harness.database.query(
            "SELECT count(*) FILTER (WHERE job_id IS NULL) AS detached, count(*) AS total FROM provider_usage")
        #expect(try usage.first?.decode("detached", as: Int.self) == 1)
        #expect(try usage.first?.decode("total", as: Int.self) == 2)

        guard s3 == nil else { return }
        let command = try await AdminCommandTests.kiln(harness, ["identity", "erase", "--tenant", "acme", kept.identity])
        #expect(command.status == 0, "\(command.output)")
        #expect(command.output.contains("jobs 2, artifacts 2, uploads 1, shares 0, campaigns 1, objects 3"))
        #expect(command.output.contains("erased"))
        #expect(try await StoreContents.read(harness).findings(of: kept.needles) == [])
    }

    /// Erasing an identity costs Redis what the identity holds: with ten times as many other identities' jobs beside
    /// it, erasing one with the same jobs runs as many Redis commands, and none is a `SCAN` (on a Redis of the test's
    /// own, no worker running).
    @Test func anErasureCostsWhatTheIdentityHoldsNotWhatOthersHold() async throws {
        let redis = try PrivateRedis()
        try await redis.start()
        try await Harness.with(redisURL: redis.hostURL) { harness in
            // Six hundred submissions from the test's one address, within a second or two.
            try harness.usePolicies(Self.policy.replacingOccurrences(of: #""burst": 100}"#, with: #""burst": 1000}"#))
            let client = try await harness.tenant("acme")
            try await harness.startAPI()
            var others = Footprint(identity: "other", marker: "")
            func submitOthers(_ count: Int) async throws {
                for index in 0..<count {
                    others = Footprint(identity: "other-\(index % 50)", marker: "")
                    _ = try await Self.submit(harness, client, &others, #"{"kind":"diag.echo","input":{"message":"hi"}}"#, device: "o-\(index % 50)")
                }
            }
            /// Redis's commands, and its `SCAN`s, while the identity is erased.
            func erase(_ identity: String) async throws -> (commands: Int, scans: Int) {
                var footprint = Footprint(identity: identity, marker: "")
                for index in 0..<3 {
                    _ = try await Self.submit(
                        harness, client, &footprint, #"{"kind":"diag.echo","input":{"message":"hi"}}"#, device: "\(identity)-dev",
                        idempotencyKey: "key-\(index)")
                }
                let before = try await Self.commandCalls(harness)
                #expect(try await harness.send(try harness.request("DELETE", "/v1/identity", as: client, identity: identity)).status == 200)
                let after = try await Self.commandCalls(harness)
                #expect(try await Self.keys(harness).allSatisfy { !$0.contains(identity) }, "a key still names \(identity)")
                return (after.total - before.total, after.scans - before.scans)
            }
            try await submitOthers(50)
            let beside50 = try await erase("first-one")
            try await submitOthers(500)
            let beside550 = try await erase("second-one")
            #expect(beside50.scans == 0 && beside550.scans == 0)
            // The erasure itself asks Redis for its commandstats: a command or two either way.
            #expect(
                abs(beside550.commands - beside50.commands) <= 2, "\(beside50.commands) commands beside 50 jobs, \(beside550.commands) beside 550")
        }
        try await redis.stop()
    }

    /// Each erasure in a namespace of format 1 walks Redis: an identity erased a moment ago, and a tenant past its
    /// erasures this minute, are refused with `Retry-After` before any walk (on a Redis of the test's own, Redis's
    /// count of `SCAN`s does not move).
    @Test func erasureIsLimitedPerIdentityAndPerTenantBeforeItWalksRedis() async throws {
        let redis = try PrivateRedis()
        try await redis.start()
        try await Harness.with(redisURL: redis.hostURL) { harness in
            try await Self.writeAsAnEarlierRelease(harness, indexing: false)
            let client = try await harness.tenant("acme")
            try await harness.startAPI {
                $0.erasuresPerTenantPerMinute = 4
                $0.erasureQuietPeriod = .seconds(10)
            }
            func erase(_ identity: String) async throws -> (status: Int, json: JSONValue?, response: HTTPResponse) {
                try await harness.send(try harness.request("DELETE", "/v1/identity", as: client, identity: identity))
            }
            #expect(try await erase("user-a").status == 200)
            let scans = try await Self.scanCalls(harness)
            let again = try await erase("user-a")
            #expect(again.status == 429 && again.json?["code"] == "erasure_rate_limited")
            #expect(again.response.header("Retry-After").flatMap(Int.init).map { (1...10).contains($0) } == true)
            #expect(try await Self.scanCalls(harness) == scans)
            for identity in ["user-b", "user-c"] { #expect(try await erase(identity).status == 200, "\(identity)") }
            // Once its quiet period is over, the identity may ask again: the tenant's fourth this minute.
            #expect(try await Eventually.holds(every: .milliseconds(500)) { try await erase("user-a").status == 200 })
            let scansBefore = try await Self.scanCalls(harness)
            let fifth = try await erase("user-d")
            #expect(fifth.status == 429 && fifth.json?["code"] == "erasure_rate_limited")
            #expect(fifth.response.header("Retry-After").flatMap(Int.init).map { (1...60).contains($0) } == true)
            #expect(try await Self.scanCalls(harness) == scansBefore)
        }
        try await redis.stop()
    }

    /// How many `SCAN`s Redis has run.
    private static func scanCalls(_ harness: Harness) async throws -> Int {
        try await commandCalls(harness).scans
    }

    /// How many commands Redis has run (those scripts ran included), and how many of them were `SCAN`s.
    private static func commandCalls(_ harness: Harness) async throws -> (total: Int, scans: Int) {
        let stats = try await harness.redisNamespace.redis.send(["INFO", "commandstats"]).string ?? ""
        var total = 0
        var scans = 0
        for line in stats.split(whereSeparator: \.isNewline) where line.hasPrefix("cmdstat_") {
            let calls = line.split(separator: ",").first?.split(separator: "=").last.flatMap { Int($0) } ?? 0
            total += calls
            if line.hasPrefix("cmdstat_scan:") { scans = calls }
        }
        return (total, scans)
    }

    /// Every key's name in Redis.
    private static func keys(_ harness: Harness) async throws -> [String] {
        try await harness.redisNamespace.redis.send(["KEYS", "*"]).array?.compactMap(\.string) ?? []
    }

    @Test(arguments: Written.allCases)
    func anErasedIdentityLeavesNothingInRedisPostgresOrTheObjectDirectory(written: Written) async throws {
        try await Harness.with { harness in try await Self.eraseAndSearch(harness, written: written) }
    }

    @Test func anErasedIdentityLeavesNothingInTheBucket() async throws {
        try await withMoto { _, _, s3 in
            try await Harness.with { harness in
                harness.objectBackend.withLock { $0 = S3ObjectStore(client: s3) }
                try await Self.eraseAndSearch(harness, s3: s3)
            }
        }
    }
}
