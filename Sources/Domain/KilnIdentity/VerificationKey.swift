import Foundation
import JWTKit

/// One key a user token may be signed with, bound to its one algorithm, so that a token cannot pick how its signature
/// is checked (no HS256 with a public key as the secret, no `none`).
enum VerificationKey: Sendable {
    case hs256(HMACKey)
    case rs256(Insecure.RSA.PublicKey)
    case es256(ES256PublicKey)

    /// The `alg` a token signed with this key must name.
    var algorithm: String {
        switch self {
        case .hs256: "HS256"
        case .rs256: "RS256"
        case .es256: "ES256"
        }
    }

    /// A collection holding only this key, to verify one token with.
    func keyCollection() async -> JWTKeyCollection {
        let keys = JWTKeyCollection()
        switch self {
        case .hs256(let key): await keys.add(hmac: key, digestAlgorithm: .sha256)
        case .rs256(let key): await keys.add(rsa: key, digestAlgorithm: .sha256)
        case .es256(let key): await keys.add(ecdsa: key)
        }
        return keys
    }

    /// The RS256 and ES256 public keys of a JSON Web Key Set, by `kid`.
    /// - Throws: ``KeySetError`` when the set cannot be used as a whole: one bad key would otherwise show up only as
    ///   its users' tokens failing.
    static func keys(ofKeySet json: String) throws(KeySetError) -> [String: VerificationKey] {
        let keySet: JWKS
        do {
            keySet = try JSONDecoder().decode(JWKS.self, from: Data(json.utf8))
        } catch {
            throw KeySetError("not a JSON Web Key Set ({\"keys\": [...]}) with keys of type RSA or EC")
        }
        var keys: [String: VerificationKey] = [:]
        for (index, jwk) in keySet.keys.enumerated() {
            guard let kid = jwk.keyIdentifier?.string, !kid.isEmpty else { throw KeySetError("key \(index) has no kid") }
            guard keys[kid] == nil else { throw KeySetError("kid \"\(kid)\" names two keys") }
            keys[kid] = try key(jwk, kid: kid)
        }
        return keys
    }

    private static func key(_ jwk: JWK, kid: String) throws(KeySetError) -> VerificationKey {
        guard jwk.privateExponent == nil else {
            throw KeySetError("key \"\(kid)\" is a private key: give Kiln the public keys only")
        }
        do {
            switch (jwk.keyType, jwk.algorithm) {
            case (.rsa, .rs256?), (.rsa, nil):
                guard let modulus = jwk.modulus, let exponent = jwk.exponent else { throw KeySetError("key \"\(kid)\" lacks n or e") }
                return .rs256(try Insecure.RSA.PublicKey(modulus: modulus, exponent: exponent))
            case (.ecdsa, .es256?), (.ecdsa, nil):
                guard jwk.curve == .ecdsa(.p256), let x = jwk.x, let y = jwk.y else {
                    throw KeySetError("key \"\(kid)\" is not a P-256 key with x and y")
                }
                return .es256(try ES256PublicKey(parameters: (x, y)))
            default:
                throw KeySetError("key \"\(kid)\" is \(jwk.algorithm?.rawValue ?? jwk.keyType.rawValue): only RS256 and ES256 keys are taken")
            }
        } catch let error as KeySetError {
            throw error
        } catch {
            throw KeySetError("key \"\(kid)\" is not a valid public key")
        }
    }
}
