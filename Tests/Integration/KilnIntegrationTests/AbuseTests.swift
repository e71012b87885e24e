import CurlClient
import Foundation
import KilnCore
import KilnJSON
import KilnQueue
import KilnStore
import Testing

/// Abuse detection through the real API and Redis: devices per identity, identities per device, velocity, the refund
/// ratio, escalation from a cooldown to a block, shadow mode, and lifting a block.
@Suite struct AbuseTests {
    /// `acme`'s policy with generous quotas, so only abuse detection says no.
    static func policy(
        shadow: Bool = false, maxDevices: Int = 2, identitiesPerDevice: Int = 2,
        velocity: String = #"{"count": 600, "period_seconds": 60, "burst": 100}"#,
        refundRatio: String = #"{"min_count": 100, "ratio": 0.9}"#
    ) -> String {
        """
        {"acme": {
          "identity_modes": ["trusted_server"], "reset_time_zone": "UTC", "safety": "standard",
          "tiers": {"free": {"lowest": true, "daily": {"text": 1000}, "running_jobs": 100, "refund_cap": 1000,
                             "max_devices_per_day": \(maxDevices)}},
          "kinds": {"diag.echo": {"class": "text", "cost": 1}, "diag.fail": {"class": "text", "cost": 1}},
          "abuse": {"shadow_mode": \(shadow), "max_identities_per_device_per_day": \(identitiesPerDevice),
                    "identity_velocity": \(velocity), "ip_velocity": {"count": 6000, "period_seconds": 60, "burst": 1000},
                    "refund_ratio": \(refundRatio), "safety_rejections": {"min_count": 3, "ratio": 0.3},
                    "escalation": {"cooldown_seconds": 600, "block_seconds": 86400}}
        }}
        """
    }

    static func start(_ harness: Harness, policy: String) async throws -> Harness.Client {
        try harness.usePolicies(policy)
        let client = try await harness.tenant("acme")
        try await harness.startAPI()
        return client
    }

    static func post(
        _ harness: Harness, _ client: Harness.Client, identity: String = "user-1", device: String? = nil,
        body: String = #"{"kind":"diag.echo","input":{}}"#
    ) async throws -> (status: Int, json: JSONValue?, response: HTTPResponse) {
        try await harness.send(
            try harness.request(
                "POST", "/v1/jobs", as: client, identity: identity, body: body, headers: device.map { [("Kiln-Device", $0)] } ?? []))
    }

    /// An operator blocks an identity, a device and an address in turn (`kiln abuse block`): admission refuses the
    /// next submission from each with the operator's reason, whichever shard it lands on, and admits it again once
    /// the block is lifted (`kiln abuse lift`).
    @Test func anOperatorsBlockOfAnIdentityADeviceOrAnAddressRefusesItUntilLifted() async throws {
        try await Harness.with { harness in
            let client = try await Self.start(harness, policy: Self.policy(maxDevices: 10, identitiesPerDevice: 10))
            #expect(try await Self.post(harness, client, identity: "mallory", device: "burner").status == 202)
            for (flags, value, refused) in [
                ([String](), "mallory", ("mallory", "phone")), (["--device"], "burner", ("alice", "burner")),
                (["--address"], "127.0.0.1", ("bob", "tablet")),
            ] {
                let block = try await AdminCommandTests.kiln(
                    harness, ["abuse", "block", "--tenant", "acme"] + flags + [value, "--reason", "chargeback fraud", "--for", "3600"])
                #expect(block.status == 0, "\(block.output)")
                let answer = try await Self.post(harness, client, identity: refused.0, device: refused.1)
                #expect(answer.status == 429, "\(value): \(String(describing: answer.json))")
                #expect(answer.json?["reason"]?.stringValue == "temporarily_blocked")
                #expect(answer.json?["block_reason"]?.stringValue == "chargeback fraud")
                #expect(answer.response.headers["Retry-After"].flatMap(Int.init).map { (3_500...3_600).contains($0) } == true)
                let listed = try await AdminCommandTests.kiln(harness, ["abuse", "blocks"])
                #expect(listed.output.contains("\(value)\toperator\tchargeback fraud"), "\(listed.output)")

                let lift = try await AdminCommandTests.kiln(harness, ["abuse", "lift", "--tenant", "acme"] + flags + [value])
                #expect(lift.status == 0, "\(lift.output)")
                #expect(try await Self.post(harness, client, identity: refused.0, device: refused.1).status == 202, "\(value)")
            }
            #expect(try await harness.redisNamespace.quota.abuseBlocks().isEmpty)
        }
    }

    @Test func aThirdDeviceCoolsTheIdentityDownThenABlockFollowsAndCanBeLifted() async throws {
        try await Harness.with { harness in
            let client = try await Self.start(harness, policy: Self.policy())
            #expect(try await Self.post(harness, client, device: "phone").status == 202)
            #expect(try await Self.post(harness, client, device: "tablet").status == 202)
            let third = try await Self.post(harness, client, device: "mac")
            #expect(third.status == 429)
            #expect(third.json?["reason"]?.stringValue == "temporarily_blocked")
            #expect(third.json?["block_reason"]?.stringValue == "too_many_devices")
            #expect(third.response.headers["Retry-After"] == "600")
            // The cooldown holds the identity on every device.
            #expect(try await Self.post(harness, client, device: "phone").json?["block_reason"]?.stringValue == "too_many_devices")
            let tenant = client.tenant.id
            #expect(try await harness.redisNamespace.quota.abuseBlocks().map(\.subject) == ["user-1"])

            #expect(try await harness.redisNamespace.quota.lift(.identity("user-1"), tenant: tenant))
            #expect(try await Self.post(harness, client, device: "phone").status == 202)
            // Tripping again the same day blocks for the block duration.
            let again = try await Self.post(harness, client, device: "mac")
            #expect(again.response.headers["Retry-After"] == "86400")
            #expect(try await harness.redisNamespace.quota.abuseLog().map(\.action) == ["block", "cooldown"])
        }
    }

    @Test func aDeviceCyclingIdentitiesIsStopped() async throws {
        try await Harness.with { harness in
            let client = try await Self.start(harness, policy: Self.policy())
            #expect(try await Self.post(harness, client, identity: "a", device: "phone").status == 202)
            #expect(try await Self.post(harness, client, identity: "b", device: "phone").status == 202)
            let third = try await Self.post(harness, client, identity: "c", device: "phone")
            #expect(third.json?["block_reason"]?.stringValue == "device_shared_by_too_many_identities")
            // The identities already seen on the device go on.
            #expect(try await Self.post(harness, client, identity: "a", device: "phone").status == 202)
        }
    }

    @Test func shadowModeOnlyLogs() async throws {
        try await Harness.with { harness in
            let client = try await Self.start(harness, policy: Self.policy(shadow: true))
            for device in ["phone", "tablet", "mac", "tv"] {
                #expect(try await Self.post(harness, client, device: device).status == 202)
            }
            #expect(try await harness.redisNamespace.quota.abuseBlocks().isEmpty)
            let log = try await harness.redisNamespace.quota.abuseLog()
            #expect(log.map(\.action) == ["shadow_block", "shadow_cooldown"])
            #expect(log.allSatisfy { $0.signal == "too_many_devices" && $0.subject == "user-1" })
        }
    }

    @Test func velocityAllowsABurstThenPacesTheIdentity() async throws {
        try await Harness.with { harness in
            // One an hour, so however slow a loaded machine makes these requests, the fourth comes too soon.
            let client = try await Self.start(harness, policy: Self.policy(velocity: #"{"count": 1, "period_seconds": 3600, "burst": 2}"#))
            // A burst of 2 on top of the one the rate allows: three at once, then one an hour.
            for _ in 0..<3 { #expect(try await Self.post(harness, client).status == 202) }
            let fourth = try await Self.post(harness, client)
            #expect(fourth.status == 429)
            #expect(fourth.json?["reason"]?.stringValue == "rate_limited")
            #expect((3000...3600).contains(Int(fourth.response.headers["Retry-After"] ?? "") ?? 0))
            #expect(try await Self.post(harness, client, identity: "user-2").status == 202)
        }
    }

    @Test func aRateThatDoesNotDivideItsPeriodEvenlyStillPaces() async throws {
        try await Harness.with { harness in
            // 7 in 30,000 s: one every 4,285,714.3 ms, which no millisecond divides evenly, and so long that however slow a
            // loaded machine makes these requests, the third comes too soon.
            let client = try await Self.start(harness, policy: Self.policy(velocity: #"{"count": 7, "period_seconds": 30000, "burst": 1}"#))
            for _ in 0..<2 { #expect(try await Self.post(harness, client).status == 202) }
            #expect(try await Self.post(harness, client).json?["reason"]?.stringValue == "rate_limited")
        }
    }

    @Test func failingOnPurposeTripsTheRefundRatio() async throws {
        try await Harness.with { harness in
            let client = try await Self.start(harness, policy: Self.policy(refundRatio: #"{"min_count": 2, "ratio": 0.5}"#))
            harness.startWorker()
            let fail = #"{"kind":"diag.fail","input":{"permanent":true}}"#
            for _ in 0..<2 {
                let reply = try await Self.post(harness, client, body: fail)
                guard case .string(let id)? = reply.json?["id"] else { throw TestFailure("not admitted: \(reply.status)") }
                _ = try await harness.awaitFinished(try #require(JobID(validating: id)), as: client)
            }
            let next = try await Self.post(harness, client)
            #expect(next.status == 429)
            #expect(next.json?["block_reason"]?.stringValue == "refund_ratio")
        }
    }
}
