import CurlClient
import Foundation
import KilnCore
import KilnPolicy
import KilnPrivacy
import KilnJSON
import KilnKeys
import KilnQueue
import KilnStore
import PostgresClient
import RedisClient
import Locking
import Testing

/// The retention purge against the real Redis, PostgreSQL and object directory. Time moves by the clock the purge is
/// given (or by backdated rows, for the command), never by waiting.
@Suite struct RetentionPurgeTests {
    static let day: TimeInterval = 86_400

    /// `acme` keeps inputs 1 day, uploads 2, results 3, artifacts 4 (``PrivacyTests/policy``); `other` has no policy
    /// and keeps everything 30 days. Each item goes exactly when its period has passed, in batches of one, and a
    /// repeated run finds nothing more.
    @Test func eachKindOfDataGoesWhenItsTenantsRetentionEnds() async throws {
        try await Harness.with { harness in
            try harness.usePolicies(PrivacyTests.policy)
            let acme = try await harness.tenant("acme")
            let other = try await harness.tenant("other")
            try await harness.startAPI()
            harness.startWorker()
            var ours = PrivacyTests.Footprint(identity: "user-a", marker: "A-SECRET-41f0")
            for index in 0..<2 {
                _ = try await PrivacyTests.submit(
                    harness, acme, &ours, #"{"kind":"diag.echo","input":{"artifact":"\#(ours.marker) \#(index)"}}"#, device: "dev-\(index)")
            }
            try await PrivacyTests.upload(harness, acme, &ours)
            let dead = try await harness.submit(#"{"kind":"diag.fail","input":{"permanent":true}}"#, as: acme, identity: ours.identity)
            var theirs = PrivacyTests.Footprint(identity: "user-b", marker: "B-SECRET-9e21")
            _ = try await PrivacyTests.submit(
                harness, other, &theirs, #"{"kind":"diag.echo","input":{"artifact":"\#(theirs.marker)"}}"#, device: "dev-b")
            try await PrivacyTests.upload(harness, other, &theirs)
            for id in ours.jobs + [dead] { _ = try await harness.awaitFinished(id, as: acme, identity: ours.identity) }
            _ = try await harness.awaitFinished(theirs.jobs[0], as: other, identity: theirs.identity)
            while try await harness.redisNamespace.admin.stats().unrecorded > 0 { try await Task.sleep(for: .milliseconds(20)) }
            #expect(try await harness.redisNamespace.admin.deadLetters().map(\.id) == [dead])

            let purger = RetentionPurger(
                admin: harness.redisNamespace.admin, records: RecordPurge(pool: harness.database, objects: harness.objects),
                policies: harness.policies.withLock { $0 }, batchSize: 1)
            let tenants = [acme.tenant.id, other.tenant.id]
            let start = Date()
            func purge(afterDays days: Double) async throws -> [TenantID: PurgeCounts] {
                let report = try await purger.purge(tenants: tenants, now: start.addingTimeInterval(days * Self.day + 3600))
                return Dictionary(uniqueKeysWithValues: report.map { ($0.tenant, $0) })
            }
            func counts(_ tenant: TenantID, inputs: Int = 0, results: Int = 0, artifacts: Int = 0, uploads: Int = 0, dead: Int = 0) -> PurgeCounts {
                var counts = PurgeCounts(tenant: tenant)
                (counts.inputs, counts.results, counts.artifacts, counts.uploads, counts.deadLetters) = (inputs, results, artifacts, uploads, dead)
                return counts
            }
            func acmeRows(_ condition: String) async throws -> Int {
                try await harness.database.query("SELECT count(*) AS n FROM jobs WHERE tenant_id = 'acme' AND \(condition)").first?.decode(
                    "n", as: Int.self) ?? -1
            }
            let ourArtifacts = "tenants/acme/jobs"
            let ourUpload = "tenants/acme/uploads/\(ours.uploads[0])"

            #expect(try await purge(afterDays: -1).values.allSatisfy(\.isEmpty), "nothing is past retention yet")

            // Day 1: inputs (the dead letter's too, with its Redis copy).
            #expect(try await purge(afterDays: 1)[acme.tenant.id] == counts(acme.tenant.id, inputs: 3, dead: 1))
            #expect(try await acmeRows("input <> 'null'::jsonb") == 0)
            #expect(try await acmeRows("result IS NOT NULL") == 2)
            #expect(try await harness.queue.snapshot(dead, tenant: acme.tenant.id) == nil)
            #expect(try await harness.redisNamespace.admin.deadLetters().isEmpty)
            // The finished jobs' Redis copies went with their inputs: the job is read from its record, result and all.
            func read(_ id: JobID) async throws -> JSONValue? {
                try await harness.send(try harness.request("GET", "/v1/jobs/\(id)", as: acme, identity: ours.identity)).json
            }
            for id in ours.jobs {
                #expect(try await harness.queue.snapshot(id, tenant: acme.tenant.id) == nil)
                #expect(try await read(id)?["result"]?["echo"] != nil)
            }
            // Day 2: uploads, bytes and record.
            #expect(try await purge(afterDays: 2)[acme.tenant.id] == counts(acme.tenant.id, uploads: 1))
            await #expect(throws: StoreError.self) { try await harness.objects.read(ourUpload) }
            #expect(try await harness.database.query("SELECT id FROM uploads WHERE tenant_id = 'acme'").isEmpty)
            // Day 3: results.
            #expect(try await purge(afterDays: 3)[acme.tenant.id] == counts(acme.tenant.id, results: 2))
            #expect(try await acmeRows("result IS NOT NULL") == 0)
            for id in ours.jobs { #expect(try await read(id)?["result"] == .null, "the result is gone from what an app reads") }
            #expect(try await harness.objects.list(under: ourArtifacts).count == 2, "artifacts are kept a day longer")
            // Day 4: artifacts; their jobs' directories go with them. The job records stay, emptied.
            #expect(try await purge(afterDays: 4)[acme.tenant.id] == counts(acme.tenant.id, artifacts: 2))
            #expect(try await harness.objects.list(under: ourArtifacts).isEmpty)
            #expect(!FileManager.default.fileExists(atPath: harness.objects.root.appendingPathComponent("tenants/acme/jobs/\(ours.jobs[0])").path))
            #expect(try await harness.database.query("SELECT job_id FROM artifacts WHERE tenant_id = 'acme'").isEmpty)
            #expect(try await acmeRows("true") == 3)
            #expect(try await purge(afterDays: 4).values.allSatisfy(\.isEmpty), "a repeated run finds nothing more")

            // Nothing of acme's inputs, results, artifacts or uploads is left in PostgreSQL or the objects.
            let contents = try await StoreContents.read(harness)
            #expect(contents.findings(of: [ours.marker] + ours.uploads).filter { !$0.hasPrefix("{") } == [])
            // Nor in Redis: the jobs' copies and their events went with their inputs.
            for id in ours.jobs {
                let copies = try await harness.redis.send(["EXISTS", try harness.keys(of: id).job(id), try harness.keys(of: id).events(id)])
                #expect(copies.int == 0)
            }
            // `other` keeps everything for 30 days, then loses it too.
            for needle in theirs.needles { #expect(!contents.findings(of: [needle]).isEmpty) }
            #expect(try await purge(afterDays: 30)[other.tenant.id] == counts(other.tenant.id, inputs: 1, results: 1, artifacts: 1, uploads: 1))
            #expect(try await StoreContents.read(harness).findings(of: [theirs.marker] + theirs.uploads).filter { !$0.hasPrefix("{") } == [])
        }
    }

    @Test func aCampaignNotPlayedWithinItsTenantsResultsRetentionGoes() async throws {
        try await Harness.with { harness in
            try harness.usePolicies(PrivacyTests.policy)
            let acme = try await harness.tenant("acme")
            let campaigns = CampaignStore(pool: harness.database)
            let player = try #require(Identity(validating: "user-a"))
            let opening = JobID()
            let played = try #require(try await campaigns.create(opening, tenant: acme.tenant.id, identity: player, title: "Played", settings: "{}"))
            let scene = NewScene(number: 1, title: nil, narrative: "The bell rings.", planningBlock: "{}")
            #expect(try await campaigns.apply(scene, state: "{}", to: played.id, job: opening))
            // A campaign whose opening job is still running waits for it, however old.
            let stillOpening = JobID()
            let pending = try #require(
                try await campaigns.create(stillOpening, tenant: acme.tenant.id, identity: player, title: "Pending", settings: "{}"))

            let purger = RetentionPurger(
                admin: harness.redisNamespace.admin, records: RecordPurge(pool: harness.database, objects: harness.objects),
                policies: harness.policies.withLock { $0 })
            let start = Date()
            func purged(afterDays days: Double) async throws -> Int {
                try await purger.purge(tenants: [acme.tenant.id], now: start.addingTimeInterval(days * Self.day + 3600)).first?.campaigns ?? -1
            }
            #expect(try await purged(afterDays: 2) == 0, "acme keeps results 3 days")
            #expect(try await purged(afterDays: 3) == 1)
            #expect(try await campaigns.find(played.id, tenant: acme.tenant.id, identity: player) == nil)
            #expect(try await campaigns.scenes(of: played.id, from: 1, limit: 10).isEmpty)
            #expect(try await campaigns.find(pending.id, tenant: acme.tenant.id, identity: player) != nil)
        }
    }

    /// ``PrivacyTests/policy`` for `acme` and `other`, each keeping its jobs' records `records` days (nil: until erasure).
    static func policy(records: [String: Int?]) throws -> String {
        let parsed = try JSONSerialization.jsonObject(with: Data(PrivacyTests.policy.utf8)) as? [String: Any]
        let template = try #require(parsed?["acme"] as? [String: Any])
        var file: [String: Any] = [:]
        for (tenant, days) in records {
            var policy = template
            var retention = try #require(policy["retention"] as? [String: Any])
            if let days { retention["records_days"] = days }
            policy["retention"] = retention
            file[tenant] = policy
        }
        return String(decoding: try JSONSerialization.data(withJSONObject: file), as: UTF8.self)
    }

    /// Whole days of jobs, artifacts and quota ledger rows go with their partitions once they are past every tenant's
    /// `records_days` (the artifacts' bytes first), while any tenant keeps its records until erasure none do; a tenant
    /// that keeps its records less long loses them row by row; nothing else changes.
    @Test func wholeDaysGoWithTheirPartitionsOnceEveryTenantsRecordsArePast() async throws {
        try await Harness.with { harness in
            let tenants = [try await harness.tenant("acme").tenant.id, try await harness.tenant("other").tenant.id]
            let now = Date()
            // The partitions of 8 days from 40 days ago, as the purge made them back then.
            let oldest = JobPartitions.Day(containing: now.addingTimeInterval(-40 * Self.day))
            #expect(try await JobPartitions(pool: harness.database).createAhead(from: oldest) == 24)
            // Each tenant's jobs of 40, 35, 12 (a day without a partition: the default one) and 1 day ago, and of now,
            // each with an artifact and a quota ledger row.
            let artifacts = ArtifactStore(pool: harness.database, objects: harness.objects)
            var submitted: [(id: JobID, tenant: TenantID, daysAgo: Int)] = []
            for tenant in tenants {
                for daysAgo in [40, 35, 12, 1, 0] {
                    let at = now.addingTimeInterval(-Double(daysAgo) * Self.day)
                    let id = JobID(shard: 0, milliseconds: Int64(at.timeIntervalSince1970 * 1000))
                    let record = JobRecord(
                        id: id, tenant: tenant, identity: try #require(Identity(validating: "user-\(daysAgo)")), kind: "diag.echo",
                        priority: .normal, state: .succeeded, attempt: 1, maxAttempts: 3, input: #"{"day": \#(daysAgo)}"#,
                        result: #"{"ok": true}"#, createdAt: at, startedAt: at, finishedAt: at)
                    #expect(try await JobStore(pool: harness.database).record([record]) == 1)
                    try await QuotaLedger(pool: harness.database).record([
                        QuotaLedgerEntry(
                            job: id, tenant: tenant, subject: "user-\(daysAgo)", day: "20260101", quotaClass: "text", units: 1, outcome: .committed)
                    ])
                    _ = try await artifacts.save(
                        job: id, tenant: tenant, attempt: 1, name: "out.txt", contentType: "text/plain", bytes: Array("day \(daysAgo)".utf8))
                    _ = try await harness.database.execute("UPDATE artifacts SET created_at = $1 WHERE job_id = $2", [at, id.rawValue])
                    submitted.append((id, tenant, daysAgo))
                }
            }
            func purger(_ records: [String: Int?]) throws -> RetentionPurger {
                try harness.usePolicies(Self.policy(records: records))
                return RetentionPurger(
                    admin: harness.redisNamespace.admin, records: RecordPurge(pool: harness.database, objects: harness.objects),
                    policies: harness.policies.withLock { $0 })
            }
            func contents() async throws -> [String] { try await StoreContents.read(harness).lines.sorted() }
            func without(_ lines: [String], _ gone: [JobID]) -> [String] { lines.filter { line in !gone.contains { line.contains($0.rawValue) } } }
            let before = try await contents()

            // `other` keeps its records until erasure: no day may go.
            let keeping = try await purger(["acme": 10, "other": nil]).maintainPartitions(of: tenants, now: now)
            #expect(keeping.dropped.isEmpty)
            #expect(try await contents() == before)

            // Both keep them at most 30 days: the 8 days from 40 days ago go, with every row and object of their jobs.
            let dropping = try purger(["acme": 10, "other": 30])
            let dropped = try await dropping.maintainPartitions(of: tenants, now: now)
            #expect(dropped.dropped == (0..<8).map { oldest.adding($0) })
            #expect(
                try await harness.database.query("SELECT to_regclass('jobs_p\(oldest)') IS NULL AS gone").first?.decode("gone", as: Bool.self) == true
            )
            let old = submitted.filter { $0.daysAgo >= 35 }.map(\.id)
            #expect(try await contents() == without(before, old))
            #expect(try await harness.objects.list(under: "tenants/acme/jobs").count == 3)
            #expect(try await dropping.maintainPartitions(of: tenants, now: now) == PartitionCounts(), "a repeated run finds nothing")

            // Row by row: acme's record of 12 days ago, past its 10 days, goes with its ledger row; other's stays.
            let report = try await dropping.purge(tenants: tenants, now: now)
            #expect(report.map(\.records) == [1, 0])
            let kept = try await harness.database.query("SELECT tenant_id || ':' || identity AS job FROM jobs ORDER BY 1").map {
                try $0.decode("job", as: String.self)
            }
            #expect(kept == ["acme:user-0", "acme:user-1", "other:user-0", "other:user-1", "other:user-12"])
            let ledger = try await harness.database.query("SELECT count(*)::int AS n FROM quota_ledger").first?.decode("n", as: Int.self)
            #expect(ledger == 5)
        }
    }

    /// `kiln purge` with the checked-in policies: a tenant without a section keeps 30 days, so rows backdated by 31
    /// days go, and newer ones stay.
    @Test func kilnPurgeDeletesWhatIsPastRetention() async throws {
        try await Harness.with { harness in
            let client = try await harness.tenant("other")
            try await harness.startAPI()
            harness.startWorker()
            var old = PrivacyTests.Footprint(identity: "user-old", marker: "OLD-SECRET-5a5a")
            _ = try await PrivacyTests.submit(harness, client, &old, #"{"kind":"diag.echo","input":{"artifact":"\#(old.marker)"}}"#, device: "d1")
            try await PrivacyTests.upload(harness, client, &old)
            var recent = PrivacyTests.Footprint(identity: "user-new", marker: "NEW-SECRET-6b6b")
            _ = try await PrivacyTests.submit(
                harness, client, &recent, #"{"kind":"diag.echo","input":{"artifact":"\#(recent.marker)"}}"#, device: "d2")
            try await PrivacyTests.upload(harness, client, &recent)
            for (footprint, id) in [(old, old.jobs[0]), (recent, recent.jobs[0])] {
                _ = try await harness.awaitFinished(id, as: client, identity: footprint.identity)
            }
            while try await harness.redisNamespace.admin.stats().unrecorded > 0 { try await Task.sleep(for: .milliseconds(20)) }
            let ago = "now() - interval '31 days'"
            _ = try await harness.database.execute("UPDATE jobs SET finished_at = \(ago) WHERE identity = 'user-old'")
            _ = try await harness.database.execute("UPDATE artifacts SET created_at = \(ago) WHERE job_id = $1::uuid", [old.jobs[0].rawValue])
            _ = try await harness.database.execute("UPDATE uploads SET created_at = \(ago) WHERE identity = 'user-old'")

            let policies = TestServers.repositoryRoot.appendingPathComponent("deploy/policies.json").path
            let run = try await AdminCommandTests.kiln(harness, ["purge", "--policies", policies, "--batch", "1"])
            #expect(run.status == 0, "\(run.output)")
            #expect(run.output.contains("other\t1\t1\t1\t1\t0\t0"), "\(run.output)")
            let contents = try await StoreContents.read(harness).lines.filter { !$0.hasPrefix("{") }
            #expect(contents.filter { line in ([old.marker] + old.uploads).contains { line.contains($0) } } == [])
            #expect(contents.contains { $0.contains(recent.marker) })
            #expect(contents.contains { $0.contains(recent.uploads[0]) })
            #expect(try await AdminCommandTests.kiln(harness, ["purge", "--policies", policies]).output.contains("other\t0\t0\t0\t0\t0\t0"))
        }
    }
}
