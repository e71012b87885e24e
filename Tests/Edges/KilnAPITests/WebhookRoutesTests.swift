import Foundation
import HTTPTypes
import IdentityFixtures
import KilnCore
import KilnIdentity
import KilnJSON
import KilnPolicy
import Testing

/// The subscription platforms' webhooks over the in-memory entitlements: each event applied once, the standings it
/// changes forgotten (a partner's too), and every refusal a 4xx with its reason.
@Suite struct WebhookRoutesTests {
    static let secret = "whsec_test"

    static func api() throws -> TestAPI {
        var test = try TestAPI.metered()
        test.webhookSecrets = MemoryWebhookSecrets(secrets: [TestAPI.tenant: [.revenueCat: secret, .adapty: secret]])
        return test
    }

    static func revenueCat(id: String = "evt-1", type: String = "INITIAL_PURCHASE", user: String = "alice") -> String {
        """
        {"event": {"id": "\(id)", "type": "\(type)", "app_user_id": "\(user)", "entitlement_ids": ["pro"],
                   "product_id": "pro_monthly", "event_timestamp_ms": 1790000000000, "expiration_at_ms": 1792592000000}}
        """
    }

    static func headers(_ secret: String = secret) -> HTTPFields {
        [.authorization: "Bearer \(secret)", .contentType: "application/json"]
    }

    @Test func aPurchaseIsAppliedOnceAndForgetsTheStandingsItChanges() async throws {
        let test = try Self.api()
        let api = try test.driver()
        let applied = try await api.send(.post, "/v1/webhooks/revenuecat/acme", headers: Self.headers(), body: Self.revenueCat())
        #expect(applied.status == .ok)
        let outcome = try #require(JSONValue.parse(applied.body))
        #expect(outcome["status"]?.stringValue == "applied")
        #expect(outcome["tier"]?.stringValue == "pro")
        #expect(test.standings.forgotten.map(\.rawValue) == ["alice"])
        let standing = try await test.entitlements.standing(
            tenant: TestAPI.tenant, identity: try #require(Identity(validating: "alice")), at: TestAPI.now)
        #expect(standing.tier == "pro")
        let again = try await api.send(.post, "/v1/webhooks/revenuecat/acme", headers: Self.headers(), body: Self.revenueCat())
        #expect(JSONValue.parse(again.body) == .object(["status": "duplicate"]))
        let unrelated = try await api.send(
            .post, "/v1/webhooks/revenuecat/acme", headers: Self.headers(), body: Self.revenueCat(id: "evt-2", type: "TEST"))
        #expect(JSONValue.parse(unrelated.body) == .object(["status": "ignored"]))
    }

    @Test func aPartnersStandingIsForgottenToo() async throws {
        let test = try Self.api()
        let api = try test.driver()
        let code = try #require(
            JSONValue.parse(try await api.send(.post, "/v1/partners/invitations", headers: TestAPI.headers("alice")).body)?["code"]?.stringValue)
        _ = try await api.send(.post, "/v1/partners/invitations/\(code)/redeem", headers: TestAPI.headers("bob"))
        _ = try await api.send(.post, "/v1/partners/invitations/\(code)/accept", headers: TestAPI.headers("alice"))
        _ = try await api.send(.post, "/v1/webhooks/revenuecat/acme", headers: Self.headers(), body: Self.revenueCat())
        #expect(test.standings.forgotten.map(\.rawValue).suffix(2) == ["alice", "bob"])
    }

    @Test(arguments: [
        ("acme", "wrong", revenueCat(), 401, "invalid_webhook_secret"),
        ("acme", "", revenueCat(), 401, "invalid_webhook_secret"),
        ("nobody", secret, revenueCat(), 401, "invalid_webhook_secret"),
        ("acme", secret, "{}", 400, "invalid_webhook"),
        ("acme", secret, revenueCat(user: "two words"), 400, "invalid_webhook"),
        ("acme", secret, #"{"event": {"id": "a\u0000b"}}"#, 400, "invalid_webhook"),
    ])
    func aWebhookThatCannotBeAppliedIsRefusedWithItsReason(tenant: String, secret: String, body: String, status: Int, code: String) async throws {
        let test = try Self.api()
        let answer = try await test.driver().send(.post, "/v1/webhooks/revenuecat/\(tenant)", headers: Self.headers(secret), body: body)
        #expect(answer.status.code == status)
        #expect(JSONValue.parse(answer.body)?["code"]?.stringValue == code)
        #expect(test.standings.forgotten.isEmpty)
    }

    @Test func aPathNamingNoTenantIsAnsweredAsAKnownTenantIsSoTenantsCannotBeListed() async throws {
        var test = try Self.api()
        let apple = try TestCertificateAuthority(name: "Apple")
        test.appStore = AppStoreVerifier(rootCertificates: [apple.root], bundleID: "com.example.store", environment: .production)
        let api = try test.driver()
        let forged = try TestCertificateAuthority(name: "Not Apple").sign(["notificationType": "SUBSCRIBED", "notificationUUID": "u"])
        let attempts: [(platform: String, headers: HTTPFields, body: String)] = [
            ("revenuecat", Self.headers("guess"), Self.revenueCat()),
            ("adapty", Self.headers("guess"), "{}"),
            ("app-store", [:], #"{"signedPayload":"\#(forged)"}"#),
            ("app-store", [:], #"{"signedPayload":"not a JWS"}"#),
            ("app-store", [:], "[]"),
        ]
        for attempt in attempts {
            var answers: [String] = []
            for tenant in ["acme", "nobody", "NOT A TENANT"] {
                let path = "/v1/webhooks/\(attempt.platform)/\(tenant.replacingOccurrences(of: " ", with: "%20"))"
                let answer = try await api.send(.post, path, headers: attempt.headers, body: attempt.body)
                answers.append("\(answer.status.code) \(JSONValue.parse(answer.body)?["code"]?.stringValue ?? "")")
            }
            #expect(Set(answers).count == 1, "\(attempt.platform): \(answers)")
            #expect(answers.first?.hasPrefix("4") == true)
        }
    }

    /// Carol's subscription to the `pro` access level.
    static let adapty = """
        {"event_type": "subscription_started", "event_datetime": "2026-09-21T14:13:20.000000+0000", "customer_user_id": "carol",
         "profile_id": "profile-1", "event_properties": {"access_level_id": "pro", "subscription_expires_at": "2026-10-21T14:13:20.000000+0000"}}
        """

    /// Trusts a test Apple root in `test`; a notification of a purchase signed by it, as Apple posts it.
    static func appleSignedPurchase(for test: inout TestAPI) throws -> String {
        let apple = try TestCertificateAuthority(name: "Apple")
        test.appStore = AppStoreVerifier(rootCertificates: [apple.root], bundleID: "com.example.store", environment: .production)
        let transaction = try apple.sign([
            "originalTransactionId": "2000000000000001", "transactionId": "2000000000000002", "bundleId": "com.example.store",
            "productId": "pro_monthly", "environment": "Production", "inAppOwnershipType": "PURCHASED",
            "signedDate": SignedToken.milliseconds(TestAPI.now), "expiresDate": SignedToken.milliseconds(TestAPI.now.addingTimeInterval(86_400)),
        ])
        let notification = try apple.sign([
            "notificationType": "SUBSCRIBED", "notificationUUID": "uuid-1", "signedDate": SignedToken.milliseconds(TestAPI.now),
            "data": ["bundleId": "com.example.store", "environment": "Production", "signedTransactionInfo": transaction],
        ])
        return #"{"signedPayload":"\#(notification)"}"#
    }

    @Test func anAdaptyAccessLevelIsApplied() async throws {
        let test = try Self.api()
        let answer = try await test.driver().send(.post, "/v1/webhooks/adapty/acme", headers: Self.headers(), body: Self.adapty)
        #expect(JSONValue.parse(answer.body) == .object(["status": "applied", "tier": "pro"]))
        #expect(test.standings.forgotten.map(\.rawValue) == ["carol"])
    }

    @Test func anAppStoreNotificationSignedByAppleIsApplied() async throws {
        var test = try Self.api()
        let body = try Self.appleSignedPurchase(for: &test)
        let api = try test.driver()
        let answer = try await api.send(.post, "/v1/webhooks/app-store/acme", body: body)
        #expect(JSONValue.parse(answer.body) == .object(["status": "applied", "tier": "pro"]))
        #expect(test.standings.forgotten.map(\.rawValue) == ["ot:2000000000000001"])
        let forged = try TestCertificateAuthority(name: "Not Apple").sign(["notificationType": "SUBSCRIBED"])
        let refused = try await api.send(.post, "/v1/webhooks/app-store/acme", body: #"{"signedPayload":"\#(forged)"}"#)
        #expect(refused.status == .unauthorized)
    }

    /// Each webhook's request schema in `openapi.json` says what its route requires: an event the route applies matches
    /// it, and taking away any one member makes the schema refuse the event exactly when the route does (`400
    /// invalid_webhook`).
    @Test func eachWebhooksSchemaRequiresWhatItsRouteRequires() async throws {
        var test = try Self.api()
        let appStore = try Self.appleSignedPurchase(for: &test)
        let api = try test.driver()
        let document = OpenAPIConformanceTests.document
        let conformance = SchemaConformance(document: document)
        let events: [(platform: String, headers: HTTPFields, body: String)] = [
            ("revenuecat", Self.headers(), Self.revenueCat()), ("adapty", Self.headers(), Self.adapty),
            ("app-store", [.contentType: "application/json"], appStore),
        ]
        for (platform, headers, body) in events {
            let schema = try #require(
                document["paths"]?["/v1/webhooks/\(platform)/{tenant}"]?["post"]?["requestBody"]?["content"]?["application/json"]?["schema"])
            let event = try #require(JSONValue.parse(body))
            #expect(conformance.departures(of: event, from: schema) == [], "\(platform)")
            for (member, without) in Self.withoutEachMember(event) {
                let schemaRefuses = !conformance.departures(of: without, from: schema).isEmpty
                let answer = try await api.send(.post, "/v1/webhooks/\(platform)/acme", headers: headers, body: without.canonicalJSON())
                #expect(
                    schemaRefuses == (answer.status == .badRequest),
                    "\(platform) without \(member): the schema \(schemaRefuses ? "refuses" : "takes") it, the route answers \(answer.status.code) \(answer.body)"
                )
            }
        }
    }

    /// `value` with each member of its objects, nested ones too, taken away in turn, named by its path.
    static func withoutEachMember(_ value: JSONValue, at path: String = "$") -> [(member: String, without: JSONValue)] {
        guard case .object(let members) = value else { return [] }
        return members.keys.sorted().flatMap { name in
            var without = members
            without[name] = nil
            return [("\(path).\(name)", JSONValue.object(without))]
                + withoutEachMember(members[name] ?? .null, at: "\(path).\(name)").map { member, inner in
                    var changed = members
                    changed[name] = inner
                    return (member, JSONValue.object(changed))
                }
        }
    }
}
