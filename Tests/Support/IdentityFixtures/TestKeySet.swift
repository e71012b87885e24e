public import Crypto
public import CryptoExtras
import Foundation

/// Keys an app's auth server might sign user tokens with, and the JSON Web Key Set it would publish for them.
public struct TestKeySet: Sendable {
    public let rsaKey: _RSA.Signing.PrivateKey
    public let rsaKID: String
    public let ecKey: P256.Signing.PrivateKey
    public let ecKID: String

    public init(rsaKey: _RSA.Signing.PrivateKey, rsaKID: String = "rsa-1", ecKey: P256.Signing.PrivateKey = .init(), ecKID: String = "ec-1") {
        self.rsaKey = rsaKey
        self.rsaKID = rsaKID
        self.ecKey = ecKey
        self.ecKID = ecKID
    }

    /// The RSA public key's DER bytes: what an attacker would try as an HS256 secret.
    public var rsaPublicKeyDER: [UInt8] { Array(rsaKey.publicKey.derRepresentation) }

    /// The public keys as a JSON Web Key Set, as Firebase and Supabase publish them.
    public var json: String {
        get throws {
            let rsa = try rsaKey.publicKey.getKeyPrimitives()
            let ec = ecKey.publicKey.rawRepresentation
            let keys: [[String: Any]] = [
                [
                    "kty": "RSA", "alg": "RS256", "use": "sig", "kid": rsaKID, "n": SignedToken.base64URL(rsa.modulus),
                    "e": SignedToken.base64URL(rsa.publicExponent),
                ],
                [
                    "kty": "EC", "alg": "ES256", "use": "sig", "kid": ecKID, "crv": "P-256", "x": SignedToken.base64URL(ec.prefix(32)),
                    "y": SignedToken.base64URL(ec.suffix(32)),
                ],
            ]
            return String(decoding: try SignedToken.json(["keys": keys]), as: UTF8.self)
        }
    }

    public func rs256(_ claims: [String: Any], kid: String? = nil) throws -> String {
        try SignedToken.make(header: ["alg": "RS256", "typ": "JWT", "kid": kid ?? rsaKID], payload: claims) { input in
            Array(try rsaKey.signature(for: input, padding: .insecurePKCS1v1_5).rawRepresentation)
        }
    }

    public func es256(_ claims: [String: Any], kid: String? = nil) throws -> String {
        try SignedToken.make(header: ["alg": "ES256", "typ": "JWT", "kid": kid ?? ecKID], payload: claims) { input in
            Array(try ecKey.signature(for: input).rawRepresentation)
        }
    }

    /// An HS256 token; `header` adds or replaces header fields (a `kid`, another `alg`).
    public static func hs256(_ claims: [String: Any], secret: [UInt8], header: [String: Any] = [:]) throws -> String {
        try SignedToken.make(header: ["alg": "HS256", "typ": "JWT"].merging(header) { $1 }, payload: claims) { input in
            Array(HMAC<SHA256>.authenticationCode(for: input, using: SymmetricKey(data: secret)))
        }
    }
}

extension TestKeySet {
    /// A fresh RSA 2048 and P-256 key pair.
    public static func generate() throws -> TestKeySet {
        try TestKeySet(rsaKey: _RSA.Signing.PrivateKey(keySize: .bits2048))
    }
}
