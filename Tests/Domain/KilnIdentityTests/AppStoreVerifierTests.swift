import Crypto
import Foundation
import IdentityFixtures
import KilnIdentity
import KilnPolicy
import Testing
import X509

/// The App Store checks of reference §4.3 and §6.8 test 22, against a certificate authority the tests make up and
/// configure as the root.
@Suite struct AppStoreVerifierTests {
    let apple: TestCertificateAuthority
    let now = Date()

    init() throws {
        apple = try TestCertificateAuthority(name: "Apple")
    }

    func verifier(_ environment: AppStoreEnvironment = .production, appAppleID: Int64? = nil) -> AppStoreVerifier {
        AppStoreVerifier(rootCertificates: [apple.root], bundleID: TestPolicy.bundleID, environment: environment, appAppleID: appAppleID)
    }

    func refusal(_ jws: String, by verifier: AppStoreVerifier? = nil) async -> String? {
        let error = await #expect(throws: IdentityError.self) { try await (verifier ?? self.verifier()).verifyTransaction(jws, now: now) }
        return error?.code
    }

    @Test func aGenuineTransactionNamesItsPurchase() async throws {
        let transaction = try await verifier().verifyTransaction(try apple.sign(AppStorePayloads.transaction(now: now)), now: now)
        #expect(transaction.originalTransactionID == "2000000000000001")
        #expect(transaction.productID == "pro_monthly")
        #expect(transaction.entitledProduct(at: now) == "pro_monthly")
        #expect(transaction.ownershipType == "PURCHASED")
    }

    @Test func aGenuineAppTransactionNamesItsAppleAccount() async throws {
        let appTransaction = try await verifier(appAppleID: 1_234_567_890).verifyAppTransaction(
            try apple.sign(AppStorePayloads.appTransaction(now: now)), now: now)
        #expect(appTransaction.appTransactionID == "704289572311849112")
    }

    @Test func aChainToAnotherRootIsUntrusted() async throws {
        // A complete look-alike hierarchy, Apple's markers included: only the root differs.
        let forger = try TestCertificateAuthority(name: "Apple")
        #expect(await refusal(try forger.sign(AppStorePayloads.transaction(now: now))) == "untrusted_chain")
    }

    @Test func aSelfSignedLeafIsUntrusted() async throws {
        let forger = try TestCertificateAuthority(name: "Apple")
        let jws = try forger.sign(AppStorePayloads.transaction(now: now), chain: [forger.root, forger.root, forger.root])
        #expect(await refusal(jws) == "untrusted_chain")
    }

    @Test func theGenuineIntermediateCannotVouchForAnotherLeaf() async throws {
        let forger = try TestCertificateAuthority(name: "Apple")
        let jws = try forger.sign(AppStorePayloads.transaction(now: now), chain: [forger.leaf, apple.intermediate, apple.root])
        #expect(await refusal(jws) == "untrusted_chain")
    }

    @Test(arguments: [(intermediateMarker: false, leafMarker: true), (intermediateMarker: true, leafMarker: false)])
    func aCertificateWithoutApplesMarkerIsRefused(intermediateMarker: Bool, leafMarker: Bool) async throws {
        let unmarked = try TestCertificateAuthority(name: "Apple", intermediateMarker: intermediateMarker, leafMarker: leafMarker)
        let verifier = AppStoreVerifier(rootCertificates: [unmarked.root], bundleID: TestPolicy.bundleID, environment: .production)
        #expect(await refusal(try unmarked.sign(AppStorePayloads.transaction(now: now)), by: verifier) == "missing_apple_oid")
    }

    @Test func anotherAppsTransactionIsRefused() async throws {
        let jws = try apple.sign(AppStorePayloads.transaction(now: now, ["bundleId": "com.example.chattale"]))
        #expect(await refusal(jws) == "wrong_bundle_id")
    }

    @Test func aSandboxTransactionIsRefusedInProduction() async throws {
        let sandbox = try apple.sign(AppStorePayloads.transaction(now: now, ["environment": "Sandbox"]))
        #expect(await refusal(sandbox) == "wrong_environment")
        // And the other way round; a sandbox tenant takes it.
        #expect(await refusal(try apple.sign(AppStorePayloads.transaction(now: now)), by: verifier(.sandbox)) == "wrong_environment")
        #expect(try await verifier(.sandbox).verifyTransaction(sandbox, now: now).originalTransactionID == "2000000000000001")
    }

    @Test func anXcodeSignedTransactionIsRefused() async throws {
        #expect(await refusal(try apple.sign(AppStorePayloads.transaction(now: now, ["environment": "Xcode"]))) == "wrong_environment")
    }

    @Test(arguments: ["RS256", "HS256", "ES384", "none", "es256"])
    func onlyES256IsTaken(algorithm: String) async throws {
        let jws = try apple.sign(AppStorePayloads.transaction(now: now), algorithm: algorithm)
        #expect(await refusal(jws) == "unsupported_algorithm")
    }

    @Test func aRefusalNeverRepeatsTheHeadersAlgorithm() async throws {
        let jws = try apple.sign(AppStorePayloads.transaction(now: now), algorithm: String(repeating: "a", count: 50_000))
        let error = await #expect(throws: IdentityError.self) { try await verifier().verifyTransaction(jws, now: now) }
        #expect(error?.code == "unsupported_algorithm")
        #expect(error.map { $0.message.count < 100 } == true)
    }

    @Test func aChangedPayloadBreaksTheSignature() async throws {
        let genuine = try apple.sign(AppStorePayloads.transaction(now: now)).split(separator: ".")
        let upgraded = try apple.sign(AppStorePayloads.transaction(now: now, ["productId": "pro_yearly"])).split(separator: ".")
        #expect(await refusal([genuine[0], upgraded[1], genuine[2]].joined(separator: ".")) == "invalid_signature")
    }

    @Test func aSignatureByAnotherKeyThanTheLeafsIsRefused() async throws {
        let jws = try apple.sign(AppStorePayloads.transaction(now: now), signingKey: P256.Signing.PrivateKey())
        #expect(await refusal(jws) == "invalid_signature")
    }

    @Test func x5cMustHoldLeafIntermediateAndRoot() async throws {
        #expect(await refusal(try apple.sign(AppStorePayloads.transaction(now: now), chain: [apple.leaf, apple.intermediate])) == "untrusted_chain")
    }

    @Test(arguments: ["", "not a token", "a.b.c", "eyJhbGciOiJFUzI1NiJ9.e30"])
    func somethingElseThanAJWSIsMalformed(text: String) async {
        #expect(await refusal(text) == "malformed_token")
    }

    @Test func certificatesAreCheckedAsOfTheSigningDate() async throws {
        // Certificates that expired last month: a transaction signed while they were valid still verifies, as with
        // Apple's library, and one that claims to be signed after they expired does not.
        let lastYear = now.addingTimeInterval(-365 * 86_400)
        let lastMonth = now.addingTimeInterval(-30 * 86_400)
        let expired = try TestCertificateAuthority(name: "Apple", validity: lastYear...lastMonth)
        let verifier = AppStoreVerifier(rootCertificates: [expired.root], bundleID: TestPolicy.bundleID, environment: .production)
        let signedThen = try expired.sign(AppStorePayloads.transaction(now: lastMonth.addingTimeInterval(-86_400)))
        #expect(try await verifier.verifyTransaction(signedThen, now: now).originalTransactionID == "2000000000000001")
        #expect(await refusal(try expired.sign(AppStorePayloads.transaction(now: now)), by: verifier) == "untrusted_chain")
    }

    @Test func anAppTransactionMustBeForTheConfiguredApp() async throws {
        let verifier = verifier(appAppleID: 42)
        let error = await #expect(throws: IdentityError.self) {
            try await verifier.verifyAppTransaction(try apple.sign(AppStorePayloads.appTransaction(now: now)), now: now)
        }
        #expect(error?.code == "wrong_app_apple_id")
        let sandbox = try apple.sign(AppStorePayloads.appTransaction(now: now, ["receiptType": "Sandbox"]))
        let environmentError = await #expect(throws: IdentityError.self) { try await self.verifier().verifyAppTransaction(sandbox, now: now) }
        #expect(environmentError?.code == "wrong_environment")
    }

    @Test func aTransactionIsNotAnAppTransaction() async throws {
        // Both are App Store JWS; a transaction sent as an AppTransaction has no appTransactionId, and is refused.
        let error = await #expect(throws: IdentityError.self) {
            try await verifier().verifyAppTransaction(try apple.sign(AppStorePayloads.transaction(now: now)), now: now)
        }
        #expect(error?.code == "wrong_environment")
    }
}
