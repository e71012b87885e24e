import Crypto
import Foundation
import KilnJSON

/// A tenant's development signing key for the local stack: a P-256 key whose public half is the key set the local
/// policies give the tenant, so that tokens made here are accepted there and nowhere else. It lives under `.kiln/`,
/// made on first use; production keeps the tenant's real key set (`deploy/jwks/`).
struct DevSigningKey {
    private let key: P256.Signing.PrivateKey

    /// The key in `directory`'s `<tenant>.pem`, made there (readable by its owner alone) when there is none.
    init(tenant: String, directory: URL) throws {
        let file = directory.appendingPathComponent("\(tenant).pem")
        if FileManager.default.fileExists(atPath: file.path) {
            key = try P256.Signing.PrivateKey(pemRepresentation: try String(contentsOf: file, encoding: .utf8))
            return
        }
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        key = P256.Signing.PrivateKey()
        guard FileManager.default.createFile(atPath: file.path, contents: Data(key.pemRepresentation.utf8), attributes: [.posixPermissions: 0o600])
        else { throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: file.path]) }
    }

    /// Names the key in the key set and in a token's header: the start of its public key's SHA-256, so a new key is a new
    /// `kid`.
    var keyID: String {
        "dev-" + SHA256.hash(data: key.publicKey.rawRepresentation).prefix(8).map { String(format: "%02x", $0) }.joined()
    }

    /// The public key as a JSON Web Key Set, as an authorization server publishes it.
    var keySet: String {
        let point = key.publicKey.rawRepresentation
        let jwk: JSONValue = .object([
            "kty": "EC", "crv": "P-256", "alg": "ES256", "use": "sig", "kid": .string(keyID),
            "x": .string(Self.base64URL(point.prefix(32))), "y": .string(Self.base64URL(point.suffix(32))),
        ])
        return JSONValue.object(["keys": .array([jwk])]).canonicalJSON()
    }

    /// An ES256 JWT of `claims`, signed with the key.
    func token(_ claims: JSONValue) throws -> String {
        let header: JSONValue = .object(["alg": "ES256", "typ": "JWT", "kid": .string(keyID)])
        let input = Self.base64URL(Data(header.canonicalJSON().utf8)) + "." + Self.base64URL(Data(claims.canonicalJSON().utf8))
        let signature = try key.signature(for: Data(input.utf8))
        return input + "." + Self.base64URL(signature.rawRepresentation)
    }

    private static func base64URL(_ data: some DataProtocol) -> String {
        Data(data).base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }
}
