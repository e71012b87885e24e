import Foundation
import IdentityFixtures
import KilnCore
import KilnJSON
import KilnPolicy
import KilnPrivacy
import KilnQueue
import Testing

/// `kiln identity migrate-namespaces` against the real Redis and PostgreSQL: an identity a JWT's `sub` of `ot:77` made
/// before namespaces moves to `u:ot:77` everywhere, merged with what the user did under the new name since, and a
/// second run changes nothing.
@Suite struct NamespaceMigrationTests {
    /// `legacy` takes JWTs and its server's assertions (as WorldArchitect does), and meters like the privacy tests, so
    /// that quota counters, reservations, device sets and velocities exist. The velocities allow one a minute (with a
    /// burst of a thousand), so their keys outlive the test: at a thousand a minute a key would live 60 ms, and whether
    /// the snapshots before and after a run still saw it would be a matter of timing.
    static let policy = """
        {"legacy": {
          "identity_modes": ["jwt", "trusted_server"],
          "jwt": {"issuer": "https://auth.example.com", "audience": "legacy", "hs256_secret_env": "\(IdentityTests.secretVariable)"},
          "reset_time_zone": "UTC", "safety": "standard",
          "tiers": {"free": {"lowest": true, "daily": {"text": 100, "story": 100}, "running_jobs": 100, "refund_cap": 10,
                             "max_devices_per_day": 4}},
          "kinds": {"diag.echo": {"class": "text", "cost": 1}, "diag.sleep": {"class": "story", "cost": 1}},
          "abuse": {"shadow_mode": true, "max_identities_per_device_per_day": 3,
                    "identity_velocity": {"count": 1, "period_seconds": 60, "burst": 1000},
                    "ip_velocity": {"count": 1, "period_seconds": 60, "burst": 1000},
                    "refund_ratio": {"min_count": 3, "ratio": 0.5}, "safety_rejections": {"min_count": 3, "ratio": 0.3},
                    "escalation": {"cooldown_seconds": 600, "block_seconds": 86400}}
        }}
        """

    /// Strings `populate` makes from the identity that are not the identity.
    static let lookAlikes = ["partner-of-ot:77", "code-ot:77"]

    /// Whether `line` names the identity `ot:77` other than as `u:ot:77`.
    static func namesTheOldIdentity(_ line: String) -> Bool {
        (lookAlikes + ["u:ot:77"]).reduce(line) { $0.replacing($1, with: "") }.contains("ot:77")
    }

    @Test func aJWTIdentityWithAReservedPrefixIsRenamedEverywhereOnce() async throws {
        try await Harness.with { harness in
            try harness.usePolicies(Self.policy, environment: [IdentityTests.secretVariable: IdentityTests.secret])
            let client = try await harness.tenant("legacy")
            let base = try await harness.startAPI()
            harness.startWorker()
            let policies = FileManager.default.temporaryDirectory.appendingPathComponent("policies-\(UUID().uuidString).json")
            try Data(Self.policy.utf8).write(to: policies)
            defer { try? FileManager.default.removeItem(at: policies) }
            let migrate = ["identity", "migrate-namespaces", "--policies", policies.path]

            // What a `sub` of `ot:77` stored before namespaces (its server names it as the tokens did): a job waiting
            // with its reservation, then finished jobs, records, an entitlement, a partner link, counters and devices.
            let later = try await harness.send(
                try harness.request(
                    "POST", "/v1/jobs", as: client, identity: "ot:77", body: #"{"kind":"diag.echo","input":{"message":"x"},"delay_seconds":3600}"#))
            let delayed = try #require(later.json?["id"]?.stringValue)
            let old = try await PrivacyTests.populate(
                harness, client, identity: "ot:77", marker: "M-77", devices: ["m-dev-1", "m-dev-2"], unfinished: false)
            // Another user, and one whose `sub` is `ot:9` since the upgrade: neither is renamed.
            for identity in ["user-5", "u:ot:9"] {
                let reply = try await harness.send(
                    try harness.request("POST", "/v1/jobs", as: client, identity: identity, body: #"{"kind":"diag.echo","input":{}}"#))
                _ = try await harness.awaitFinished(
                    try #require(reply.json?["id"]?.stringValue.flatMap(JobID.init(validating:))), as: client, identity: identity)
            }
            // The user since the upgrade: a new name, which cannot see what it did before.
            let token = [("Kiln-User-Token", try IdentityTests.userToken("ot:77", audience: "legacy"))]
            let user = { (method: String, path: String) in IdentityTests.request(method, path, base: base, as: client, token) }
            let since = try await harness.send(user("POST", "/v1/jobs"))
            _ = try await harness.awaitFinished(
                try #require(since.json?["id"]?.stringValue.flatMap(JobID.init(validating:))), as: client, identity: "u:ot:77")
            while try await harness.redisNamespace.admin.stats().unrecorded > 0 { try await Task.sleep(for: .milliseconds(20)) }
            #expect(try await harness.send(user("GET", "/v1/jobs/\(old.jobs[0].rawValue)")).status == 404)
            let before = try await StoreContents.read(harness)
            #expect(!before.lines.filter(Self.namesTheOldIdentity).isEmpty)

            let dryRun = try await AdminCommandTests.kiln(harness, migrate + ["--dry-run"])
            #expect(dryRun.status == 0, "\(dryRun.output)")
            #expect(dryRun.output.contains("legacy: ot:77 -> u:ot:77\n"))
            #expect(dryRun.output.contains("dry run: 1 identities would be renamed"))
            #expect(
                Set(try await StoreContents.read(harness).lines.filter(Self.namesTheOldIdentity))
                    == Set(before.lines.filter(Self.namesTheOldIdentity)))

            let first = try await AdminCommandTests.kiln(harness, migrate)
            #expect(first.status == 0, "\(first.output)")
            #expect(first.output.contains("legacy: ot:77 -> u:ot:77\n"))
            #expect(first.output.contains("renamed 1 identities"))
            let after = try await StoreContents.read(harness)
            #expect(after.lines.filter(Self.namesTheOldIdentity) == [])
            let renamed = after.findings(of: ["u:ot:77"])
            for place in [
                "jobs: ", "uploads: ", "campaigns: ", "entitlements: ", "quota_ledger: ", "partner_links: ", "partner_invitations: ",
                ":job:", ":quota:legacy:u:ot:77:", ":devs:legacy:u:ot:77:", ":subs:legacy:m-dev-1:", ":rsv:legacy:u:ot:77 ",
                ":gcra:legacy:u:ot:77 ",
            ] {
                #expect(renamed.contains { $0.contains(place) }, "\(place)")
            }
            // Each as it was, but for its velocity, which expires on its own a minute after its submission: on a
            // loaded machine the rename may come later than that.
            let lasting = { (line: String) in !line.contains(":gcra:") }
            for other in ["user-5", "u:ot:9"] {
                #expect(
                    Set(after.findings(of: [other]).filter(lasting)) == Set(before.findings(of: [other]).filter(lasting)), "\(other) is as it was")
            }
            // The user's jobs, old and queued, are theirs again, and their day's counters one: two jobs then, one since.
            #expect(try await harness.send(user("GET", "/v1/jobs/\(old.jobs[0].rawValue)")).status == 200)
            #expect(try await harness.send(user("GET", "/v1/jobs/\(delayed)")).status == 200)
            let counters = try #require(renamed.first { $0.contains(":quota:legacy:u:ot:77:") })
            let fields = counters.split(separator: " => ")[1].split(separator: " ")
            #expect(stride(from: 0, to: fields.count - 1, by: 2).contains { fields[$0] == "used:text" && fields[$0 + 1] == "3" }, "\(counters)")

            let second = try await AdminCommandTests.kiln(harness, migrate)
            #expect(second.status == 0, "\(second.output)")
            #expect(second.output.contains("renamed 0 identities: rows 0, redis jobs 0"))
            #expect(Set(try await StoreContents.read(harness).findings(of: ["ot:77"])) == Set(after.findings(of: ["ot:77"])))
        }
    }

    @Test(arguments: [
        ("ot:77", [IdentityMode.jwt], NamespaceMigration.Decision.rename(to: "u:ot:77")),
        ("at:5", [.jwt, .trustedServer], .rename(to: "u:at:5")),
        ("d:phone", [.jwt], .rename(to: "u:d:phone")),
        ("u:alice", [.jwt], .rename(to: "u:u:alice")),
        // Names the escape made: left, so a second run renames nothing.
        ("u:ot:77", [.jwt], .keep), ("u:u:alice", [.jwt], .keep),
        ("alice", [.jwt], .keep), ("user-ot:1", [.jwt], .keep),
        // The tenant's App Store users and devices are `ot:`, `at:` and `d:` too: which one a name is, nothing tells.
        ("ot:77", [.jwt, .appStore], .ambiguous), ("d:phone", [.jwt, .anonymousDevice], .ambiguous),
        ("d:phone", [.jwt, .appStore], .rename(to: "u:d:phone")),
    ])
    func aStoredNameIsRenamedOnlyWhenOnlyAJWTCouldHaveMadeIt(stored: String, modes: [IdentityMode], decision: NamespaceMigration.Decision) {
        #expect(NamespaceMigration.decision(for: stored, modes: Set(modes)) == decision)
    }
}
