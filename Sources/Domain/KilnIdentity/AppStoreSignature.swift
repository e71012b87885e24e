import Crypto
import Foundation
import JWTKit
import SwiftASN1
@_spi(FixedExpiryValidationTime) import X509

/// The checks every JWS the App Store signs must pass, as Apple's `ChainVerifier` makes them (reference §4.2): ES256,
/// an `x5c` of exactly leaf, intermediate and root, a chain from the leaf through the intermediate to one of the
/// configured roots, Apple's marker extensions on the intermediate and the leaf, and the signature by the leaf's key.
struct AppStoreSignature: Sendable {
    /// On Apple's WWDR intermediate certificates.
    static let intermediateMarker: ASN1ObjectIdentifier = [1, 2, 840, 113635, 100, 6, 2, 1]
    /// On the leaf certificates that sign App Store receipts and transactions.
    static let leafMarker: ASN1ObjectIdentifier = [1, 2, 840, 113635, 100, 6, 11, 1]

    private let roots: CertificateStore

    init(roots: [Certificate]) {
        self.roots = CertificateStore(roots)
    }

    /// The payload of `jws`, once its signature is known to be the App Store's. `now` is the validation time when the
    /// payload says nothing of when it was signed.
    func verify<Payload: AppStorePayload>(_ jws: String, as _: Payload.Type, now: Date) async throws(IdentityError) -> Payload {
        // Read before anything is trusted, only for the header's algorithm and chain and the time the chain is
        // checked at; what the caller gets is the payload jwt-kit returns once the signature verifies.
        let header: JWTHeader
        let unverified: Payload
        do {
            (header, unverified, _) = try DefaultJWTParser().parse(Array(jws.utf8), as: Payload.self)
        } catch {
            throw .malformedToken("not a JWS with the expected App Store payload")
        }
        guard header.alg == "ES256" else {
            throw .unsupportedAlgorithm("App Store signatures are ES256, this one's alg is another")
        }
        guard let x5c = header.x5c, x5c.count == 3 else {
            throw .untrustedChain("x5c must hold exactly three certificates: leaf, intermediate, root")
        }
        let leaf = try Self.certificate(x5c[0], position: "leaf")
        let intermediate = try Self.certificate(x5c[1], position: "intermediate")

        var verifier = Verifier(rootCertificates: roots) { RFC5280Policy(fixedExpiryValidationTime: unverified.signedAt ?? now) }
        guard case .validCertificate(let chain) = await verifier.validate(leaf: leaf, intermediates: CertificateStore([intermediate])),
            chain.count == 3
        else {
            throw .untrustedChain("the certificates do not chain through one intermediate to a configured root")
        }
        guard chain[1].extensions[oid: Self.intermediateMarker] != nil else {
            throw .missingAppleOID("the intermediate certificate lacks Apple's WWDR marker 1.2.840.113635.100.6.2.1")
        }
        guard chain[0].extensions[oid: Self.leafMarker] != nil else {
            throw .missingAppleOID("the leaf certificate lacks Apple's App Store signing marker 1.2.840.113635.100.6.11.1")
        }

        guard let leafKey = P256.Signing.PublicKey(chain[0].publicKey) else {
            throw .invalidSignature("the leaf certificate's key is not a P-256 key")
        }
        do {
            let keys = JWTKeyCollection()
            await keys.add(ecdsa: try ES256PublicKey(backing: leafKey))
            return try await keys.verify(jws, as: Payload.self)
        } catch {
            throw .invalidSignature("the signature does not verify with the leaf certificate's key")
        }
    }

    /// One `x5c` entry: base64 (not base64url) of a DER certificate.
    private static func certificate(_ base64: String, position: String) throws(IdentityError) -> Certificate {
        guard let der = Data(base64Encoded: base64), let certificate = try? Certificate(derEncoded: Array(der)) else {
            throw .malformedToken("the \(position) certificate in x5c is not a base64 DER certificate")
        }
        return certificate
    }
}
