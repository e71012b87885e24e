import Crypto
import Foundation
import IdentityFixtures
import KilnIdentity
import Testing

/// JWTs from an app's own sign-in: HS256 with a secret, RS256 and ES256 with a JSON Web Key Set, and the claims.
@Suite struct UserTokenVerifierTests {
    static let secret = Array("a test secret, long enough for HS256".utf8)
    /// RSA keys take a while to make: one set for the suite.
    static let keySet = Result { try TestKeySet.generate() }
    let now = Date()

    func claims(_ changes: [String: Any] = [:]) -> [String: Any] {
        var claims: [String: Any] = [
            "sub": "user-42", "iss": TestPolicy.issuer, "aud": TestPolicy.audience, "iat": SignedToken.seconds(now),
            "exp": SignedToken.seconds(now.addingTimeInterval(3600)),
        ]
        claims.merge(changes) { $1 }
        return claims
    }

    func secretVerifier() throws -> UserTokenVerifier {
        try UserTokenVerifier(issuer: TestPolicy.issuer, audience: TestPolicy.audience, keys: .hs256Secret(Self.secret))
    }

    func keySetVerifier() throws -> UserTokenVerifier {
        try UserTokenVerifier(issuer: TestPolicy.issuer, audience: TestPolicy.audience, keys: .keySet(try Self.keySet.get().json))
    }

    func refusal(_ token: String, by verifier: UserTokenVerifier) async -> String? {
        let error = await #expect(throws: IdentityError.self) { try await verifier.verify(token, now: now) }
        return error?.code
    }

    @Test func aGoodHS256TokenNamesItsSubject() async throws {
        let token = try await secretVerifier().verify(try TestKeySet.hs256(claims(), secret: Self.secret), now: now)
        #expect(token.subject == "user-42")
        #expect(token.expiresAt == Date(timeIntervalSince1970: TimeInterval(SignedToken.seconds(now.addingTimeInterval(3600)))))
    }

    @Test func goodRS256AndES256TokensVerifyWithTheirKeyFromTheKeySet() async throws {
        let keys = try Self.keySet.get()
        let verifier = try keySetVerifier()
        #expect(try await verifier.verify(try keys.rs256(claims()), now: now).subject == "user-42")
        #expect(try await verifier.verify(try keys.es256(claims(["sub": "user-7"])), now: now).subject == "user-7")
    }

    @Test func anExpiredTokenIsRefusedPastTheLeeway() async throws {
        let verifier = try secretVerifier()
        let expired = try TestKeySet.hs256(claims(["exp": SignedToken.seconds(now.addingTimeInterval(-120))]), secret: Self.secret)
        #expect(await refusal(expired, by: verifier) == "token_expired")
        // Within the minute's leeway for clocks that disagree: still good.
        let justExpired = try TestKeySet.hs256(claims(["exp": SignedToken.seconds(now.addingTimeInterval(-20))]), secret: Self.secret)
        #expect(try await verifier.verify(justExpired, now: now).subject == "user-42")
        let withoutExpiry = try TestKeySet.hs256(claims().filter { $0.key != "exp" }, secret: Self.secret)
        #expect(await refusal(withoutExpiry, by: verifier) == "malformed_token")
    }

    @Test func aTokenNotYetValidIsRefused() async throws {
        let early = try TestKeySet.hs256(claims(["nbf": SignedToken.seconds(now.addingTimeInterval(600))]), secret: Self.secret)
        #expect(await refusal(early, by: try secretVerifier()) == "token_not_yet_valid")
    }

    @Test func aTokenForAnotherAudienceIsRefused() async throws {
        let verifier = try secretVerifier()
        #expect(await refusal(try TestKeySet.hs256(claims(["aud": "chattale"]), secret: Self.secret), by: verifier) == "wrong_audience")
        let several = try TestKeySet.hs256(claims(["aud": ["chattale", TestPolicy.audience]]), secret: Self.secret)
        #expect(try await verifier.verify(several, now: now).subject == "user-42")
    }

    @Test func aTokenFromAnotherIssuerIsRefused() async throws {
        let token = try TestKeySet.hs256(claims(["iss": "https://evil.example.com"]), secret: Self.secret)
        #expect(await refusal(token, by: try secretVerifier()) == "wrong_issuer")
    }

    @Test func aTokenWithoutSubjectIsRefused() async throws {
        let token = try TestKeySet.hs256(claims().filter { $0.key != "sub" }, secret: Self.secret)
        #expect(await refusal(token, by: try secretVerifier()) == "invalid_identity")
    }

    @Test func aBadSignatureIsRefused() async throws {
        let verifier = try secretVerifier()
        let otherSecret = try TestKeySet.hs256(claims(), secret: Array("another secret, just as long as the first".utf8))
        #expect(await refusal(otherSecret, by: verifier) == "invalid_signature")
        // A valid token's claims with another user's subject and the original signature.
        let genuine = try TestKeySet.hs256(claims(), secret: Self.secret).split(separator: ".")
        let forged = try TestKeySet.hs256(claims(["sub": "admin"]), secret: Self.secret).split(separator: ".")
        #expect(await refusal([genuine[0], forged[1], genuine[2]].joined(separator: "."), by: verifier) == "invalid_signature")
        let otherKeys = try TestKeySet(rsaKey: Self.keySet.get().rsaKey, ecKey: P256.Signing.PrivateKey())
        #expect(await refusal(try otherKeys.es256(claims()), by: try keySetVerifier()) == "invalid_signature")
    }

    @Test func aRefusalNeverRepeatsTheTokensHeader() async throws {
        let keys = try Self.keySet.get()
        let long = String(repeating: "k", count: 50_000)
        for (token, verifier) in [
            (try keys.rs256(claims(), kid: long), try keySetVerifier()),
            (try TestKeySet.hs256(claims(), secret: Self.secret, header: ["alg": long]), try secretVerifier()),
        ] {
            let error = await #expect(throws: IdentityError.self) { try await verifier.verify(token, now: now) }
            #expect(error.map { $0.message.count < 100 } == true, "\(error?.message.count ?? 0) characters")
        }
    }

    @Test func aKeyTheSetDoesNotHoldIsUnknown() async throws {
        let keys = try Self.keySet.get()
        #expect(await refusal(try keys.rs256(claims(), kid: "rotated-away"), by: try keySetVerifier()) == "unknown_key")
        let withoutKID = try TestKeySet.hs256(claims(), secret: Self.secret)
        #expect(await refusal(withoutKID, by: try keySetVerifier()) == "unknown_key")
    }

    @Test func aTokenCannotChooseAnotherAlgorithmThanItsKeys() async throws {
        let keys = try Self.keySet.get()
        // The classic confusion: HS256 "signed" with the RSA public key as the secret, under the RSA key's kid.
        let confused = try TestKeySet.hs256(claims(), secret: keys.rsaPublicKeyDER, header: ["kid": keys.rsaKID])
        #expect(await refusal(confused, by: try keySetVerifier()) == "unsupported_algorithm")
        let unsigned = try SignedToken.make(header: ["alg": "none", "typ": "JWT"], payload: claims()) { _ in [] }
        #expect(await refusal(unsigned, by: try secretVerifier()) == "unsupported_algorithm")
        #expect(await refusal(try keys.rs256(claims()), by: try secretVerifier()) == "unsupported_algorithm")
    }

    @Test func keysThatCannotVerifyAreRefusedUpFront() throws {
        #expect(throws: KeySetError.self) {
            try UserTokenVerifier(issuer: TestPolicy.issuer, audience: TestPolicy.audience, keys: .hs256Secret(Array("short".utf8)))
        }
        for json in ["[]", #"{"keys": [{"kty": "RSA", "n": "AQAB", "e": "AQAB"}]}"#, #"{"keys": [{"kty": "oct", "kid": "k", "k": "c2VjcmV0"}]}"#] {
            #expect(throws: KeySetError.self) { try UserTokenVerifier(issuer: TestPolicy.issuer, audience: TestPolicy.audience, keys: .keySet(json)) }
        }
        let ec = P256Key.privateJWK
        let error = #expect(throws: KeySetError.self) {
            try UserTokenVerifier(issuer: TestPolicy.issuer, audience: TestPolicy.audience, keys: .keySet(ec))
        }
        #expect(error?.reason == #"key "leaked" is a private key: give Kiln the public keys only"#)
    }
}

/// A JSON Web Key that holds a private key (`d`), as a careless export would.
private enum P256Key {
    static let privateJWK = #"""
        {"keys": [{"kty": "EC", "crv": "P-256", "kid": "leaked", "alg": "ES256",
                   "x": "f83OJ3D2xF1Bg8vub9tLe1gHMzV76e8Tus9uPHvRVEU", "y": "x_FEzRu9m36HLN_tue659LNpXW6pCyStikYjKIWI5a0",
                   "d": "jpsQnnGQmL-YBIffH1136cspYG6-0iY7X1fCE9-E9LI"}]}
        """#
}
