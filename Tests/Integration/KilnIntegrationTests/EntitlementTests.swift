import CurlClient
import Foundation
import KilnCore
import KilnJSON
import KilnKeys
import KilnQueue
import KilnStore
import RedisClient
import Testing

/// Entitlements through the real API, Redis and PostgreSQL: RevenueCat and Adapty webhooks applied once and in
/// order, upgrades applying to the next submission, downgrades leaving admitted jobs their tier, and partners who
/// share one entitlement and one quota pool.
@Suite struct EntitlementTests {
    /// `acme`: free users get 1 text unit a day, premium (RevenueCat entitlement or Adapty access level `premium`)
    /// 100; partners may link, with a day's cooldown after an unlink.
    static let policy = """
        {"acme": {
          "identity_modes": ["trusted_server"], "reset_time_zone": "UTC", "safety": "standard",
          "partners": {"unlink_cooldown_seconds": 86400},
          "tiers": {
            "free": {"lowest": true, "daily": {"text": 1}, "running_jobs": 100, "refund_cap": 0, "max_devices_per_day": 4},
            "premium": {"daily": {"text": 100}, "running_jobs": 100, "refund_cap": 0, "max_devices_per_day": 4, "entitlements": ["premium"]}
          },
          "kinds": {"diag.echo": {"class": "text", "cost": 1}},
          "abuse": {"shadow_mode": true, "max_identities_per_device_per_day": 3,
                    "identity_velocity": {"count": 600, "period_seconds": 60, "burst": 100},
                    "ip_velocity": {"count": 6000, "period_seconds": 60, "burst": 1000},
                    "refund_ratio": {"min_count": 3, "ratio": 0.5}, "safety_rejections": {"min_count": 3, "ratio": 0.3},
                    "escalation": {"cooldown_seconds": 600, "block_seconds": 86400}}
        }}
        """

    static func start(_ harness: Harness) async throws -> (Harness.Client, revenueCat: String, adapty: String) {
        try harness.usePolicies(policy)
        let client = try await harness.tenant("acme")
        let secrets = WebhookSecretStore(pool: harness.database)
        let revenueCat = try await secrets.create(tenant: client.tenant.id, source: .revenueCat)
        let adapty = try await secrets.create(tenant: client.tenant.id, source: .adapty)
        try await harness.startAPI()
        return (client, revenueCat, adapty)
    }

    static func revenueCatEvent(id: String, type: String, user: String = "user-1", at milliseconds: Int64, expires: Int64? = nil) -> String {
        """
        {"api_version": "1.0", "event": {"id": "\(id)", "type": "\(type)", "app_user_id": "\(user)", "entitlement_ids": ["premium"],
         "product_id": "premium_monthly", "event_timestamp_ms": \(milliseconds),
         "expiration_at_ms": \(expires.map(String.init) ?? "null"), "environment": "PRODUCTION", "store": "APP_STORE"}}
        """
    }

    static func webhook(_ harness: Harness, _ platform: String, secret: String, _ body: String) async throws -> (status: Int, json: JSONValue?) {
        let reply = try await harness.send(
            HTTPRequest(
                method: "POST", url: try harness.apiURL + "/v1/webhooks/\(platform)/acme",
                headers: ["Authorization": secret, "Content-Type": "application/json"], body: Array(body.utf8)))
        return (reply.status, reply.json)
    }

    static func post(
        _ harness: Harness, _ client: Harness.Client, identity: String = "user-1"
    ) async throws -> (status: Int, json: JSONValue?, response: HTTPResponse) {
        try await harness.send(try harness.request("POST", "/v1/jobs", as: client, identity: identity, body: #"{"kind":"diag.echo","input":{}}"#))
    }

    static var nowMilliseconds: Int64 { Int64(Date().timeIntervalSince1970 * 1000) }

    @Test func aRevenueCatPurchaseUpgradesTheNextSubmissionAndAnExpiryDowngrades() async throws {
        try await Harness.with { harness in
            let (client, secret, _) = try await Self.start(harness)
            #expect(try await Self.post(harness, client).status == 202)
            #expect(try await Self.post(harness, client).json?["reason"]?.stringValue == "daily_quota_exhausted")

            let now = Self.nowMilliseconds
            let purchase = Self.revenueCatEvent(id: "evt-1", type: "INITIAL_PURCHASE", at: now, expires: now + 30 * 86_400_000)
            #expect(try await Self.webhook(harness, "revenuecat", secret: secret, purchase).json?["status"]?.stringValue == "applied")
            // RevenueCat retries with the same id: applied once.
            for _ in 0..<3 {
                #expect(try await Self.webhook(harness, "revenuecat", secret: secret, purchase).json?["status"]?.stringValue == "duplicate")
            }
            let upgraded = try await Self.post(harness, client)
            #expect(upgraded.status == 202)
            #expect(upgraded.response.headers["Kiln-Quota-Limit"] == "100")
            let admittedID = try #require(upgraded.json?["id"]?.stringValue)

            // An event older than the purchase, delivered late, changes nothing.
            let late = Self.revenueCatEvent(id: "evt-0", type: "EXPIRATION", at: now - 60_000)
            #expect(try await Self.webhook(harness, "revenuecat", secret: secret, late).json?["status"]?.stringValue == "applied")
            #expect(try await Self.post(harness, client).status == 202)

            let expiry = Self.revenueCatEvent(id: "evt-2", type: "EXPIRATION", at: now + 1000)
            #expect(try await Self.webhook(harness, "revenuecat", secret: secret, expiry).json?["status"]?.stringValue == "applied")
            #expect(try await Self.post(harness, client).json?["reason"]?.stringValue == "daily_quota_exhausted")
            // The job admitted while premium keeps its tier.
            let tier = try await harness.redis.send([
                "HGET", try harness.keys(of: try #require(JobID(validating: admittedID))).job(try #require(JobID(validating: admittedID))), "tier",
            ])
            #expect(tier.string == "premium")
        }
    }

    @Test func aWebhookWithoutTheSecretIsRefused() async throws {
        try await Harness.with { harness in
            _ = try await Self.start(harness)
            let event = Self.revenueCatEvent(id: "evt-1", type: "INITIAL_PURCHASE", at: Self.nowMilliseconds)
            #expect(try await Self.webhook(harness, "revenuecat", secret: "wrong", event).status == 401)
            #expect(try await Self.webhook(harness, "revenuecat", secret: "", event).status == 401)
            // A tenant that does not exist is refused as a wrong secret is: the answer does not tell it exists.
            let other = try await harness.send(
                HTTPRequest(method: "POST", url: try harness.apiURL + "/v1/webhooks/revenuecat/nobody", body: Array(event.utf8)))
            #expect(other.status == 401)
            #expect(other.json?["code"]?.stringValue == "invalid_webhook_secret")
        }
    }

    /// A time no store sends (Int64.max milliseconds once crashed the API node on its way to PostgreSQL) is refused, and
    /// so is an expiry Adapty could not have written (read as none, it granted the tier for ever).
    @Test func aWebhookWithATimeNoStoreSendsChangesNothing() async throws {
        try await Harness.with { harness in
            let (client, revenueCat, adapty) = try await Self.start(harness)
            for (at, expires) in [(Int64.max, Int64?.none), (Self.nowMilliseconds, Int64.min), (-1, nil)] {
                let event = Self.revenueCatEvent(id: "evt-\(at)-\(String(describing: expires))", type: "INITIAL_PURCHASE", at: at, expires: expires)
                let (status, json) = try await Self.webhook(harness, "revenuecat", secret: revenueCat, event)
                #expect(status == 400)
                #expect(json?["code"]?.stringValue == "invalid_webhook")
            }
            let event = """
                {"event_type": "access_level_updated", "event_datetime": "\(Date().formatted(Date.ISO8601FormatStyle()))",
                 "profile_id": "prof-1", "customer_user_id": "user-1",
                 "event_properties": {"access_level_id": "premium", "profile_has_access_level": true,
                                      "subscription_expires_at": "+300000-01-01T00:00:00Z"}}
                """
            #expect(try await Self.webhook(harness, "adapty", secret: adapty, event).status == 400)
            #expect(try await Self.post(harness, client).response.headers["Kiln-Quota-Limit"] == "1")
        }
    }

    /// What PostgreSQL cannot store, or no identity could be, is refused with a 400 (it answered 500, and the platform
    /// retried for ever).
    @Test(arguments: [
        #"{"event": {"id": "e-1", "type": "EXPIRATION", "app_user_id": "u\u0000x", "event_timestamp_ms": 1795624000000}}"#,
        #"{"event": {"id": "e-2", "type": "EXPIRATION", "app_user_id": "", "event_timestamp_ms": 1795624000000}}"#,
        #"{"event": {"id": "e-3", "type": "EXPIRATION", "app_user_id": "a b", "event_timestamp_ms": 1795624000000}}"#,
        #"{"event": {"id": "\#(String(repeating: "x", count: 300))", "type": "EXPIRATION", "app_user_id": "u", "event_timestamp_ms": 1795624000000}}"#,
    ])
    func aRevenueCatEventKilnCannotStoreIsA400(body: String) async throws {
        try await Harness.with { harness in
            let (_, revenueCat, _) = try await Self.start(harness)
            let (status, json) = try await Self.webhook(harness, "revenuecat", secret: revenueCat, body)
            #expect(status == 400)
            #expect(json?["code"]?.stringValue == "invalid_webhook")
        }
    }

    @Test func anAdaptyAccessLevelUpgrades() async throws {
        try await Harness.with { harness in
            let (client, _, secret) = try await Self.start(harness)
            let expires = Date().addingTimeInterval(86_400).formatted(Date.ISO8601FormatStyle())
            let event = """
                {"event_type": "access_level_updated", "event_datetime": "\(Date().formatted(Date.ISO8601FormatStyle()))",
                 "profile_id": "prof-1", "customer_user_id": "user-1",
                 "event_properties": {"access_level_id": "premium", "profile_has_access_level": true, "subscription_expires_at": "\(expires)"}}
                """
            #expect(try await Self.webhook(harness, "adapty", secret: secret, event).json?["status"]?.stringValue == "applied")
            #expect(try await Self.webhook(harness, "adapty", secret: secret, event).json?["status"]?.stringValue == "duplicate")
            #expect(try await Self.post(harness, client).response.headers["Kiln-Quota-Limit"] == "100")
        }
    }

    @Test func partnersShareOneEntitlementAndOnePoolUntilTheyUnlink() async throws {
        try await Harness.with { harness in
            let (client, secret, _) = try await Self.start(harness)
            func call(_ method: String, _ path: String, as identity: String) async throws -> (status: Int, json: JSONValue?) {
                let reply = try await harness.send(try harness.request(method, path, as: client, identity: identity))
                return (reply.status, reply.json)
            }
            let code = try #require(try await call("POST", "/v1/partners/invitations", as: "alice").json?["code"]?.stringValue)
            #expect(try await call("POST", "/v1/partners/invitations/\(code)/redeem", as: "alice").status == 404, "not one's own code")
            #expect(try await call("POST", "/v1/partners/invitations/\(code)/redeem", as: "bob").status == 202)
            #expect(try await call("POST", "/v1/partners/invitations/\(code)/accept", as: "bob").status == 404, "only the inviter accepts")
            #expect(try await call("POST", "/v1/partners/invitations/\(code)/accept", as: "alice").status == 201)
            #expect(try await call("GET", "/v1/partners", as: "bob").json?["partner"]?.stringValue == "alice")

            // One pool: alice's free unit is bob's too.
            #expect(try await Self.post(harness, client, identity: "alice").status == 202)
            #expect(try await Self.post(harness, client, identity: "bob").json?["reason"]?.stringValue == "daily_quota_exhausted")
            // One entitlement: alice subscribes, bob has premium.
            let now = Self.nowMilliseconds
            _ = try await Self.webhook(
                harness, "revenuecat", secret: secret,
                Self.revenueCatEvent(id: "evt-1", type: "INITIAL_PURCHASE", user: "alice", at: now, expires: now + 86_400_000))
            #expect(try await Self.post(harness, client, identity: "bob").response.headers["Kiln-Quota-Limit"] == "100")

            #expect(try await call("DELETE", "/v1/partners", as: "bob").json?["unlinked"]?.stringValue == "alice")
            #expect(try await Self.post(harness, client, identity: "bob").status == 202, "bob's own pool again, free")
            #expect(try await Self.post(harness, client, identity: "bob").json?["reason"]?.stringValue == "daily_quota_exhausted")
            // Linking again within the cooldown is refused.
            let again = try #require(try await call("POST", "/v1/partners/invitations", as: "alice").json?["code"]?.stringValue)
            #expect(try await call("POST", "/v1/partners/invitations/\(again)/redeem", as: "bob").status == 202)
            #expect(try await call("POST", "/v1/partners/invitations/\(again)/accept", as: "alice").status == 409)
        }
    }
}
