public import Foundation
import JWTKit

/// Verifies the JWTs of an app's own sign-in (Firebase, Supabase, its own auth server): the signature with an HS256
/// secret or with the RS256 or ES256 key its `kid` names in a JSON Web Key Set, then `exp` and `nbf` with a small
/// leeway for clocks, `iss`, `aud` and `sub`.
public struct UserTokenVerifier: Sendable {
    /// Where the verifying keys come from.
    public enum Keys: Sendable {
        /// A shared HS256 secret, at least 32 bytes.
        case hs256Secret([UInt8])
        /// The JSON text of a JSON Web Key Set of RS256 and ES256 public keys.
        case keySet(String)
    }

    /// The shortest HS256 secret taken: 256 bits, the hash's size (RFC 7518 §3.2).
    public static let shortestSecret = 32

    public let issuer: String
    public let audience: String
    /// How far `exp` and `nbf` may be off, for clocks that disagree.
    public let leeway: Duration
    private let keys: Keyring

    /// One secret for every token, or public keys that each token picks by its `kid`.
    private enum Keyring: Sendable {
        case secret(VerificationKey)
        case keySet([String: VerificationKey])
    }

    /// - Throws: ``KeySetError`` when the keys cannot verify anything.
    public init(issuer: String, audience: String, keys: Keys, leeway: Duration = .seconds(60)) throws {
        self.issuer = issuer
        self.audience = audience
        self.leeway = leeway
        switch keys {
        case .hs256Secret(let secret):
            guard secret.count >= Self.shortestSecret else {
                throw KeySetError("the HS256 secret is \(secret.count) bytes; at least \(Self.shortestSecret) are needed")
            }
            self.keys = .secret(.hs256(HMACKey(from: secret)))
        case .keySet(let json):
            self.keys = .keySet(try VerificationKey.keys(ofKeySet: json))
        }
    }

    /// - Throws: ``IdentityError``.
    public func verify(_ token: String, now: Date) async throws -> UserToken {
        let header: JWTHeader
        do {
            header = try DefaultJWTParser().parse(Array(token.utf8), as: UserTokenClaims.self).header
        } catch {
            throw IdentityError.malformedToken("not a JWT")
        }
        let key = try key(for: header)
        let claims: UserTokenClaims
        do {
            claims = try await key.keyCollection().verify(token, as: UserTokenClaims.self)
        } catch {
            throw IdentityError.invalidSignature("the signature does not verify with the configured key")
        }
        return try check(claims, now: now)
    }

    private func key(for header: JWTHeader) throws(IdentityError) -> VerificationKey {
        let key: VerificationKey
        switch keys {
        case .secret(let secret):
            key = secret
        case .keySet(let keySet):
            guard let kid = header.kid else { throw .unknownKey("the token names no key (kid)") }
            // The token's own values are never repeated: a refusal's detail stays short whatever the token holds.
            guard let named = keySet[kid] else { throw .unknownKey("the token's kid names no configured key") }
            key = named
        }
        guard header.alg == key.algorithm else {
            throw .unsupportedAlgorithm("the key is for \(key.algorithm), the token's alg is another")
        }
        return key
    }

    private func check(_ claims: UserTokenClaims, now: Date) throws(IdentityError) -> UserToken {
        let leeway = leeway.timeInterval
        guard let expiresAt = claims.exp?.value else { throw .malformedToken("the token has no exp") }
        guard now < expiresAt.addingTimeInterval(leeway) else { throw .tokenExpired("the token expired at \(expiresAt)") }
        if let notBefore = claims.nbf?.value, now.addingTimeInterval(leeway) < notBefore {
            throw .tokenNotYetValid("the token is valid from \(notBefore)")
        }
        guard claims.iss?.value == issuer else { throw .wrongIssuer("the token was not issued by \(issuer)") }
        guard claims.aud?.value.contains(audience) == true else { throw .wrongAudience("the token is not for \(audience)") }
        guard let subject = claims.sub?.value, !subject.isEmpty else { throw .invalidIdentity("the token has no sub") }
        return UserToken(subject: subject, expiresAt: expiresAt)
    }
}
