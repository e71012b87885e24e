import Foundation
import IdentityFixtures
import KilnCore
import KilnIdentity
import KilnPolicy
import Testing

/// One tenant's modes: which it accepts, the identity each gives, the tier of App Store purchases (reference §4.3:
/// revoked or expired downgrades, it does not refuse), and the verification cache.
@Suite struct IdentityVerifierTests {
    static let secret = Array("a test secret, long enough for HS256".utf8)
    let apple: TestCertificateAuthority
    let now = Date()

    init() throws {
        apple = try TestCertificateAuthority(name: "Apple")
    }

    func verifier(_ modes: [IdentityMode] = IdentityMode.allCases, cache: VerificationCache = VerificationCache()) throws -> IdentityVerifier {
        IdentityVerifier(
            policy: try TestPolicy.policy(modes: modes),
            appStore: AppStoreVerifier(rootCertificates: [apple.root], bundleID: TestPolicy.bundleID, environment: .production),
            userTokens: try UserTokenVerifier(issuer: TestPolicy.issuer, audience: TestPolicy.audience, keys: .hs256Secret(Self.secret)),
            cache: cache)
    }

    func transaction(_ changes: [String: Any] = [:]) throws -> Credential {
        .appStoreTransaction(try apple.sign(AppStorePayloads.transaction(now: now, changes)))
    }

    func userToken(subject: String = "user-42", expires: Date? = nil) throws -> Credential {
        .userToken(
            try TestKeySet.hs256(
                [
                    "sub": subject, "iss": TestPolicy.issuer, "aud": TestPolicy.audience,
                    "exp": SignedToken.seconds(expires ?? now.addingTimeInterval(3600)),
                ],
                secret: Self.secret))
    }

    @Test func aModeTheTenantDoesNotAcceptIsRefused() async throws {
        let appStoreOnly = try verifier([.appStore])
        for credential in [Credential.trustedServer(identity: "user-1", tier: "pro"), .anonymousDevice("device-1"), try userToken()] {
            let error = await #expect(throws: IdentityError.self) { try await appStoreOnly.verify(credential, now: now) }
            #expect(error?.code == "identity_mode_not_accepted")
        }
    }

    @Test func eachModeGivesItsOwnIdentity() async throws {
        let verifier = try verifier()
        let paying = try await verifier.verify(try transaction(), now: now)
        #expect(paying.identity.rawValue == "ot:2000000000000001")
        #expect(paying.mode == .appStore)
        let free = try await verifier.verify(.appTransaction(try apple.sign(AppStorePayloads.appTransaction(now: now))), now: now)
        #expect(free == VerifiedIdentity(mode: .appStore, identity: try #require(Identity(validating: "at:704289572311849112")), tierName: nil))
        #expect(try await verifier.verify(try userToken(), now: now).identity.rawValue == "user-42")
        #expect(try await verifier.verify(.anonymousDevice("device-1"), now: now).identity.rawValue == "d:device-1")
        let vouched = try await verifier.verify(.trustedServer(identity: "user-42", tier: "pro"), now: now)
        #expect(vouched == VerifiedIdentity(mode: .trustedServer, identity: try #require(Identity(validating: "user-42")), tierName: "pro"))
    }

    @Test func aDeviceCannotPassForASignedInUser() async throws {
        // The prefix keeps devices apart: a made-up device id that spells a user's identity is still only a device.
        let verifier = try verifier()
        let user = try await verifier.verify(try userToken(), now: now)
        let device = try await verifier.verify(.anonymousDevice(user.identity.rawValue), now: now)
        #expect(device.identity != user.identity)
        #expect(device.tierName == "free")
    }

    @Test func aUserWhoseSubjectSpellsAnotherModesIdentityIsNotThatIdentity() async throws {
        // A `sub` of `ot:…` or `d:…` is escaped, never the App Store user or the device it spells; so is one that starts
        // with the escape itself, so two subjects never share an identity. Any other `sub` is its identity as it is.
        let verifier = try verifier()
        let paying = try await verifier.verify(try transaction(), now: now).identity.rawValue
        let device = try await verifier.verify(.anonymousDevice("device-1"), now: now).identity.rawValue
        let escaped = [
            paying: "u:\(paying)", "at:704289572311849112": "u:at:704289572311849112", device: "u:\(device)", "u:\(paying)": "u:u:\(paying)",
            "user-42": "user-42", "dot:1": "dot:1", "u-2": "u-2",
        ]
        for (subject, identity) in escaped {
            #expect(try await verifier.verify(try userToken(subject: subject), now: now).identity.rawValue == identity, "\(subject)")
        }
    }

    @Test func anMCPTokensUserIsTheSameIdentityAsTheirSignInTokens() async throws {
        let keys = try UserTokenVerifier(issuer: TestPolicy.issuer, audience: TestPolicy.audience, keys: .hs256Secret(Self.secret))
        let verifier = IdentityVerifier(policy: try TestPolicy.policy(modes: [.jwt]), userTokens: keys, mcpTokens: keys)
        for subject in ["ot:2000000000000001", "user-42"] {
            guard case .userToken(let token) = try userToken(subject: subject) else {
                Issue.record("not a user token")
                continue
            }
            let signedIn = try await verifier.verify(.userToken(token), now: now).identity
            #expect(try await verifier.verifyMCPToken(token, now: now).identity == signedIn)
            #expect(signedIn.rawValue == IdentityNamespace.userName(subject))
        }
    }

    @Test func aSubjectTooLongOnceEscapedIsRefused() async throws {
        let error = await #expect(throws: IdentityError.self) {
            try await verifier().verify(try userToken(subject: "ot:" + String(repeating: "1", count: 124)), now: now)
        }
        #expect(error?.code == "invalid_identity")
    }

    @Test func anActiveSubscriptionGivesItsProductsTier() async throws {
        #expect(try await verifier().verify(try transaction(), now: now).tierName == "pro")
    }

    @Test(arguments: [
        ("revoked", ["revocationDate": SignedToken.milliseconds(Date()), "revocationReason": 1] as [String: any Sendable]),
        ("expired", ["expiresDate": SignedToken.milliseconds(Date(timeIntervalSinceNow: -60))]),
        ("upgraded", ["isUpgraded": true]),
        ("a product the app does not sell", ["productId": "coins_100"]),
    ])
    func aTransactionThatGrantsNothingDowngradesToTheLowestTier(reason: String, changes: [String: any Sendable]) async throws {
        let verified = try await verifier().verify(try transaction(changes), now: now)
        #expect(verified.identity.rawValue == "ot:2000000000000001", "still the same user: \(reason)")
        #expect(verified.tierName == nil, "downgraded: \(reason)")
    }

    @Test func aFamilyMemberGetsTheTierWithTheirOwnIdentity() async throws {
        let shared = try transaction(["inAppOwnershipType": "FAMILY_SHARED", "originalTransactionId": "2000000000000777"])
        let member = try await verifier().verify(shared, now: now)
        #expect(member.tierName == "pro")
        #expect(member.identity.rawValue == "ot:2000000000000777")
    }

    @Test func aCachedTierEndsWithTheSubscription() async throws {
        let cache = VerificationCache()
        let verifier = try verifier(cache: cache)
        let ending = try transaction(["expiresDate": SignedToken.milliseconds(now.addingTimeInterval(600))])
        #expect(try await verifier.verify(ending, now: now).tierName == "pro")
        #expect(try await verifier.verify(ending, now: now.addingTimeInterval(300)).tierName == "pro")
        #expect(cache.count == 1, "the second verification was the cache's")
        #expect(try await verifier.verify(ending, now: now.addingTimeInterval(601)).tierName == nil)
    }

    @Test func aCachedTokenExpiresWithTheToken() async throws {
        let verifier = try verifier()
        let token = try userToken(expires: now.addingTimeInterval(120))
        #expect(try await verifier.verify(token, now: now).identity.rawValue == "user-42")
        // Past exp and the leeway: refused, not served from the cache.
        let error = await #expect(throws: IdentityError.self) { try await verifier.verify(token, now: now.addingTimeInterval(120 + 61)) }
        #expect(error?.code == "token_expired")
    }

    @Test func theCacheHoldsAtMostItsCapacity() async throws {
        let cache = VerificationCache(capacity: 3)
        let verifier = try verifier(cache: cache)
        for user in 1...5 {
            #expect(try await verifier.verify(try userToken(subject: "user-\(user)"), now: now).identity.rawValue == "user-\(user)")
        }
        #expect(cache.count == 3)
    }

    @Test func refusalsAreNotCached() async throws {
        let cache = VerificationCache()
        let verifier = try verifier(cache: cache)
        let sandbox = try transaction(["environment": "Sandbox"])
        for _ in 0..<2 {
            let error = await #expect(throws: IdentityError.self) { try await verifier.verify(sandbox, now: now) }
            #expect(error?.code == "wrong_environment")
        }
        #expect(cache.count == 0)
    }

    @Test func anIdentityTooLongForItsPrefixIsRefused() async throws {
        let error = await #expect(throws: IdentityError.self) {
            try await verifier().verify(.anonymousDevice(String(repeating: "d", count: 128)), now: now)
        }
        #expect(error?.code == "invalid_identity")
    }
}
