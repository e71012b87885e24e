import CurlClient
import Foundation
import Hummingbird
import IdentityFixtures
import KilnAPI
import KilnCore
import KilnJSON
import KilnQueue
import KilnStore
import RedisClient
import ServiceLifecycle
import Testing

/// Identity modes through the real API: the devices of one Apple Account share one quota pool (reference §6.8,
/// test 24), a paying user's tier comes from the verified purchase, and a credential that does not verify is refused
/// with its code before Redis is touched.
@Suite struct IdentityTests {
    static let secretVariable = "KILN_TEST_SIGNIN_SECRET"
    static let secret = String(repeating: "s", count: 40)

    /// `store` identifies its users by the App Store, anonymous devices and HS256 JWTs; `signin` by HS256 JWTs only.
    /// Free users get 3 text units a day, and no cooldown, so that only the daily quota refuses.
    static func policies(rootPath: String) -> String {
        let tiers = """
            "tiers": {
              "free": {"lowest": true, "daily": {"text": 3}, "running_jobs": 100, "refund_cap": 1, "max_devices_per_day": 4},
              "pro": {"daily": {"text": 1000}, "running_jobs": 100, "refund_cap": 20, "max_devices_per_day": 8, "products": ["pro_monthly"]}
            },
            "kinds": {"diag.echo": {"class": "text", "cost": 1}},
            "reset_time_zone": "UTC", "safety": "standard",
            "abuse": {"shadow_mode": true, "max_identities_per_device_per_day": 3,
                      "identity_velocity": {"count": 10, "period_seconds": 60, "burst": 5},
                      "ip_velocity": {"count": 60, "period_seconds": 60, "burst": 30},
                      "refund_ratio": {"min_count": 3, "ratio": 0.5}, "safety_rejections": {"min_count": 3, "ratio": 0.3},
                      "escalation": {"cooldown_seconds": 600, "block_seconds": 86400}}
            """
        return """
            {"store": {
               "identity_modes": ["app_store", "anonymous_device", "jwt"],
               "app_store": {"bundle_id": "com.example.store", "environment": "production", "root_certificates": ["\(rootPath)"]},
               "jwt": {"issuer": "https://auth.example.com", "audience": "store", "hs256_secret_env": "\(secretVariable)"},
               \(tiers)},
             "signin": {
               "identity_modes": ["jwt"],
               "jwt": {"issuer": "https://auth.example.com", "audience": "signin", "hs256_secret_env": "\(secretVariable)"},
               \(tiers)}}
            """
    }

    /// A certificate authority standing in for Apple's, configured as the root, and the two tenants with their keys.
    static func start(
        _ harness: Harness, api: Bool = true
    ) async throws -> (apple: TestCertificateAuthority, store: Harness.Client, signin: Harness.Client) {
        let apple = try TestCertificateAuthority(name: "Apple")
        try FileManager.default.createDirectory(at: harness.objects.root, withIntermediateDirectories: true)
        let rootPath = harness.objects.root.appendingPathComponent("apple-root.pem").path
        try Data(try apple.rootPEM.utf8).write(to: URL(fileURLWithPath: rootPath))
        try harness.usePolicies(policies(rootPath: rootPath), environment: [secretVariable: secret])
        let store = try await harness.tenant("store")
        let signin = try await harness.tenant("signin")
        if api { try await harness.startAPI() }
        return (apple, store, signin)
    }

    static func appTransaction(
        _ apple: TestCertificateAuthority, id: String = "704289572311849112", _ changes: [String: Any] = [:]
    ) throws -> String {
        var payload: [String: Any] = [
            "appTransactionId": id, "bundleId": "com.example.store", "receiptType": "Production",
            "receiptCreationDate": SignedToken.milliseconds(Date()), "originalPlatform": "iOS",
        ]
        payload.merge(changes) { $1 }
        return try apple.sign(payload)
    }

    static func transaction(_ apple: TestCertificateAuthority, _ changes: [String: Any] = [:], algorithm: String = "ES256") throws -> String {
        var payload: [String: Any] = [
            "originalTransactionId": "2000000000000001", "transactionId": "2000000000000002", "bundleId": "com.example.store",
            "productId": "pro_monthly", "environment": "Production", "inAppOwnershipType": "PURCHASED",
            "signedDate": SignedToken.milliseconds(Date()), "expiresDate": SignedToken.milliseconds(Date(timeIntervalSinceNow: 86_400)),
        ]
        payload.merge(changes) { $1 }
        return try apple.sign(payload, algorithm: algorithm)
    }

    /// A request with the tenant's key and the given credential headers, and nothing else that identifies the user.
    static func request(
        _ method: String, _ path: String, base: String, as client: Harness.Client, _ credentials: [(String, String)]
    ) -> CurlClient.HTTPRequest {
        var headers: HTTPHeaders = ["Authorization": "Bearer \(client.key)", "Content-Type": "application/json"]
        for (name, value) in credentials { headers.add(name: name, value: value) }
        let body = method == "POST" ? Array(#"{"kind":"diag.echo","input":{"message":"hi"}}"#.utf8) : nil
        return CurlClient.HTTPRequest(method: method, url: base + path, headers: headers, body: body)
    }

    @Test func threeDevicesOfOneAppleAccountShareOneQuota() async throws {
        try await Harness.with { harness in
            let (apple, store, _) = try await Self.start(harness)
            let base = try harness.apiURL
            let account = try Self.appTransaction(apple)
            // iPhone, iPad and Mac, three requests each, all at once, against a limit of 3 a day.
            let replies = try await withThrowingTaskGroup(of: (Int, JSONValue?).self) { group in
                for device in ["iphone", "ipad", "mac"] {
                    for _ in 0..<3 {
                        group.addTask {
                            let credentials = [("Kiln-App-Transaction", account), ("Kiln-Device", device)]
                            let request = Self.request("POST", "/v1/jobs", base: base, as: store, credentials)
                            let reply = try await harness.send(request)
                            return (reply.status, reply.json)
                        }
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(replies.filter { $0.0 == 202 }.count == 3)
            #expect(replies.filter { $0.0 == 429 }.allSatisfy { $0.1?["reason"]?.stringValue == "daily_quota_exhausted" })
            #expect(replies.filter { $0.0 == 429 }.count == 6)

            // The pool is the account's, whichever device asks, and it is the lowest tier's.
            let quota = try await harness.send(Self.request("GET", "/v1/quota", base: base, as: store, [("Kiln-App-Transaction", account)]))
            #expect(quota.json?["tier"]?.stringValue == "free")
            #expect(quota.json?["classes"]?["text"]?["pending"] == .number(3))
            #expect(quota.json?["classes"]?["text"]?["remaining"] == .number(0))
            // Another Apple Account has its own pool, and so does a device on its own.
            let other = try Self.appTransaction(apple, id: "704289572311849999")
            #expect(try await harness.send(Self.request("POST", "/v1/jobs", base: base, as: store, [("Kiln-App-Transaction", other)])).status == 202)
            #expect(try await harness.send(Self.request("POST", "/v1/jobs", base: base, as: store, [("Kiln-Device", "iphone")])).status == 202)
        }
    }

    @Test func aPurchaseGivesItsTierAndARefundTakesItBack() async throws {
        try await Harness.with { harness in
            let (apple, store, _) = try await Self.start(harness)
            let base = try harness.apiURL
            let paying = [("Kiln-App-Store-Transaction", try Self.transaction(apple)), ("Kiln-Device", "iphone")]
            let reply = try await harness.send(Self.request("POST", "/v1/jobs", base: base, as: store, paying))
            #expect(reply.status == 202)
            #expect(reply.response.headers["Kiln-Quota-Limit"] == "1000")
            #expect(try await harness.send(Self.request("GET", "/v1/quota", base: base, as: store, paying)).json?["tier"]?.stringValue == "pro")
            // The same purchase, refunded: the same user, downgraded rather than refused.
            let refunded = try Self.transaction(apple, ["revocationDate": SignedToken.milliseconds(Date()), "revocationReason": 1])
            let quota = try await harness.send(Self.request("GET", "/v1/quota", base: base, as: store, [("Kiln-App-Store-Transaction", refunded)]))
            #expect(quota.json?["tier"]?.stringValue == "free")
            #expect(quota.json?["classes"]?["text"]?["pending"] == .number(1), "the purchase's own pool")
        }
    }

    /// An App Store Server Notification V2 about the default transaction, signed by `signer`.
    static func notification(_ signer: TestCertificateAuthority, type: String, uuid: String, transaction: String) throws -> String {
        let payload: [String: Any] = [
            "notificationType": type, "notificationUUID": uuid, "signedDate": SignedToken.milliseconds(Date()),
            "data": ["bundleId": "com.example.store", "environment": "Production", "signedTransactionInfo": transaction],
        ]
        return #"{"signedPayload":"\#(try signer.sign(payload))"}"#
    }

    @Test func aRefundTheAppStoreNotifiesOutweighsThePurchaseTheAppStillPresents() async throws {
        try await Harness.with { harness in
            let (apple, store, _) = try await Self.start(harness)
            let base = try harness.apiURL
            let transaction = try Self.transaction(apple)
            let paying = [("Kiln-App-Store-Transaction", transaction)]
            #expect(try await harness.send(Self.request("GET", "/v1/quota", base: base, as: store, paying)).json?["tier"]?.stringValue == "pro")

            func notify(_ body: String) async throws -> (status: Int, json: JSONValue?) {
                let reply = try await harness.send(
                    CurlClient.HTTPRequest(
                        method: "POST", url: base + "/v1/webhooks/app-store/store", headers: ["Content-Type": "application/json"],
                        body: Array(body.utf8)))
                return (reply.status, reply.json)
            }
            let refund = try Self.notification(apple, type: "REFUND", uuid: "6e8f0a7b-refund", transaction: transaction)
            #expect(try await notify(refund).json?["status"]?.stringValue == "applied")
            // Apple retries a notification until it is acknowledged: applied once.
            #expect(try await notify(refund).json?["status"]?.stringValue == "duplicate")
            #expect(try await harness.send(Self.request("GET", "/v1/quota", base: base, as: store, paying)).json?["tier"]?.stringValue == "free")

            // A notification signed by anyone but Apple is refused.
            let forger = try TestCertificateAuthority(name: "Apple")
            let forged = try Self.notification(forger, type: "SUBSCRIBED", uuid: "6e8f0a7b-forged", transaction: transaction)
            let refused = try await notify(forged)
            #expect(refused.status == 401)
            #expect(refused.json?["code"]?.stringValue == "untrusted_chain")
        }
    }

    @Test func aCredentialThatDoesNotVerifyIsRefusedBeforeRedisIsTouched() async throws {
        try await Harness.with { harness in
            let (apple, store, signin) = try await Self.start(harness, api: false)
            // An API whose Redis does not answer: a refusal there cannot have come from Redis.
            var redis = harness.redis.configuration
            redis.port = 1
            redis.connectTimeout = .milliseconds(200)
            let deadRedis = RedisPool(configuration: redis)
            let dead = try RedisNamespace(redis: deadRedis, configuration: harness.redisNamespace.configuration)
            let dependencies = harness.dependencies(redis: dead)
            let port = PortBox()
            var configuration = APIConfiguration()
            configuration.port = 0
            let app = APIServer.application(dependencies: dependencies, configuration: configuration, logger: harness.logger) { port.set($0) }
            let group = ServiceGroup(services: [app], gracefulShutdownSignals: [], logger: harness.logger)
            Task { try await group.run() }
            defer { Task { await group.triggerGracefulShutdown() } }
            let base = "http://127.0.0.1:\(try await port.wait())"

            let forger = try TestCertificateAuthority(name: "Apple")
            let expiredToken = try TestKeySet.hs256(
                ["sub": "user-1", "iss": "https://auth.example.com", "aud": "signin", "exp": SignedToken.seconds(Date(timeIntervalSinceNow: -3600))],
                secret: Array(Self.secret.utf8))
            let refusals: [(Harness.Client, [(String, String)], status: Int, code: String)] = [
                (store, [("Kiln-App-Transaction", try Self.appTransaction(forger))], 401, "untrusted_chain"),
                (store, [("Kiln-App-Store-Transaction", try Self.transaction(apple, ["environment": "Sandbox"]))], 401, "wrong_environment"),
                (store, [("Kiln-App-Transaction", try Self.appTransaction(apple, ["bundleId": "com.example.other"]))], 401, "wrong_bundle_id"),
                (store, [("Kiln-App-Store-Transaction", try Self.transaction(apple, algorithm: "RS256"))], 401, "unsupported_algorithm"),
                (store, [("Kiln-Identity", "user-1")], 401, "identity_mode_not_accepted"),
                (store, [("Kiln-App-Transaction", try Self.appTransaction(apple)), ("Kiln-Tier", "pro")], 400, "tier_not_assertable"),
                (store, [("Kiln-App-Transaction", try Self.appTransaction(apple)), ("Kiln-User-Token", "x")], 400, "ambiguous_identity"),
                (store, [], 400, "identity_required"),
                (signin, [("Kiln-User-Token", expiredToken)], 401, "token_expired"),
                (signin, [("Kiln-Device", "iphone")], 401, "identity_mode_not_accepted"),
            ]
            for (client, credentials, status, code) in refusals {
                let reply = try await harness.send(Self.request("POST", "/v1/jobs", base: base, as: client, credentials))
                #expect(reply.status == status, "\(code)")
                #expect(reply.json?["code"]?.stringValue == code)
                #expect(reply.response.headers["Content-Type"] == "application/problem+json")
            }
            // A credential that verifies goes on to Redis, which is down.
            let good = [("Kiln-App-Transaction", try Self.appTransaction(apple))]
            let genuine = try await harness.send(Self.request("POST", "/v1/jobs", base: base, as: store, good))
            #expect(genuine.status == 503)
        }
    }

    @Test func aSignedInUsersEntitlementIsTheirs() async throws {
        try await Harness.with { harness in
            let (_, _, signin) = try await Self.start(harness)
            // What a RevenueCat or Adapty webhook records for the app's own user id, which is the token's sub.
            let entitlement = Entitlement(
                tenant: signin.tenant.id, identity: "user-1", tier: "pro", expiresAt: Date(timeIntervalSinceNow: 86_400), source: .adapty,
                productID: nil, eventAt: Date())
            #expect(try await EntitlementStore(pool: harness.database).apply(entitlement, eventID: "evt-1"))
            let token = try TestKeySet.hs256(
                ["sub": "user-1", "iss": "https://auth.example.com", "aud": "signin", "exp": SignedToken.seconds(Date(timeIntervalSinceNow: 3600))],
                secret: Array(Self.secret.utf8))
            let reply = try await harness.send(Self.request("POST", "/v1/jobs", base: try harness.apiURL, as: signin, [("Kiln-User-Token", token)]))
            #expect(reply.status == 202)
            #expect(reply.response.headers["Kiln-Quota-Limit"] == "1000")
        }
    }

    @Test func everyOperationForAnEndUserDocumentsEveryCredential() throws {
        let document = try #require(JSONValue.parse(String(decoding: try OpenAPIDocument.bytes(), as: UTF8.self)))
        let credentials = [
            "Identity": "Kiln-Identity", "AppStoreTransaction": "Kiln-App-Store-Transaction", "AppTransaction": "Kiln-App-Transaction",
            "UserToken": "Kiln-User-Token", "Device": "Kiln-Device",
        ]
        for (parameter, header) in credentials {
            #expect(document["components"]?["parameters"]?[parameter]?["name"]?.stringValue == header)
        }
        guard case .object(let paths)? = document["paths"] else { throw TestFailure("no paths") }
        for (path, item) in paths {
            guard case .object(let operations) = item else { continue }
            for (method, operation) in operations {
                guard case .array(let parameters)? = operation["parameters"] else { continue }
                let references = Set(parameters.compactMap { $0["$ref"]?.stringValue })
                // An operation for an end user is one that takes their identity; webhooks and operations take none.
                guard references.contains("#/components/parameters/Identity") else { continue }
                for parameter in credentials.keys {
                    #expect(references.contains("#/components/parameters/\(parameter)"), "\(method) \(path) documents \(parameter)")
                }
            }
        }
    }

    @Test func aSignedInUserIsTheirTokensSubject() async throws {
        try await Harness.with { harness in
            let (_, _, signin) = try await Self.start(harness)
            let base = try harness.apiURL
            let token = try TestKeySet.hs256(
                ["sub": "user-1", "iss": "https://auth.example.com", "aud": "signin", "exp": SignedToken.seconds(Date(timeIntervalSinceNow: 3600))],
                secret: Array(Self.secret.utf8))
            let submitted = try await harness.send(Self.request("POST", "/v1/jobs", base: base, as: signin, [("Kiln-User-Token", token)]))
            #expect(submitted.status == 202)
            let id = try #require(submitted.json?["id"]?.stringValue)
            // The job is the user's: readable with their token, not with another user's.
            #expect(try await harness.send(Self.request("GET", "/v1/jobs/\(id)", base: base, as: signin, [("Kiln-User-Token", token)])).status == 200)
            let other = try TestKeySet.hs256(
                ["sub": "user-2", "iss": "https://auth.example.com", "aud": "signin", "exp": SignedToken.seconds(Date(timeIntervalSinceNow: 3600))],
                secret: Array(Self.secret.utf8))
            #expect(try await harness.send(Self.request("GET", "/v1/jobs/\(id)", base: base, as: signin, [("Kiln-User-Token", other)])).status == 404)
        }
    }

    /// A token of the tenant's sign-in for `subject`, valid for an hour.
    static func userToken(_ subject: String, audience: String) throws -> String {
        try TestKeySet.hs256(
            ["sub": subject, "iss": "https://auth.example.com", "aud": audience, "exp": SignedToken.seconds(Date(timeIntervalSinceNow: 3600))],
            secret: Array(Self.secret.utf8))
    }

    /// A `sub` that spells an App Store identity (`ot:…`) or a device's (`d:…`) is escaped (`u:…`): its bearer can
    /// neither read nor erase that user's jobs, on a tenant that accepts all three modes.
    @Test func aTokenWhoseSubjectSpellsAnotherModesIdentityIsNotThatUser() async throws {
        try await Harness.with { harness in
            let (apple, store, _) = try await Self.start(harness)
            let base = try harness.apiURL
            let owners: [(credential: (String, String), lookAlike: String)] = [
                (("Kiln-App-Store-Transaction", try Self.transaction(apple)), "ot:2000000000000001"),
                (("Kiln-Device", "iphone-7"), "d:iphone-7"),
            ]
            for (credential, lookAlike) in owners {
                let submitted = try await harness.send(Self.request("POST", "/v1/jobs", base: base, as: store, [credential]))
                #expect(submitted.status == 202)
                let job = "/v1/jobs/\(try #require(submitted.json?["id"]?.stringValue))"
                let impostor = [("Kiln-User-Token", try Self.userToken(lookAlike, audience: "store"))]
                #expect(try await harness.send(Self.request("GET", job, base: base, as: store, impostor)).status == 404, "\(lookAlike)")
                // Erasing the token's identity erases its own, not the look-alike's.
                #expect(try await harness.send(Self.request("DELETE", "/v1/identity", base: base, as: store, impostor)).status == 200)
                #expect(try await harness.send(Self.request("GET", job, base: base, as: store, [credential])).status == 200, "\(lookAlike)")
            }
        }
    }
}
