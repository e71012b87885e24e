public import Crypto
public import Foundation
import SwiftASN1
public import X509

/// A made-up App Store signing hierarchy: a root, an intermediate and a leaf, each with its own key, made the way
/// Apple's are (reference §4.2), with switches to leave out what verification must insist on.
public struct TestCertificateAuthority: Sendable {
    static let intermediateMarker: ASN1ObjectIdentifier = [1, 2, 840, 113635, 100, 6, 2, 1]
    static let leafMarker: ASN1ObjectIdentifier = [1, 2, 840, 113635, 100, 6, 11, 1]

    public let root: Certificate
    public let intermediate: Certificate
    public let leaf: Certificate
    public let leafKey: P256.Signing.PrivateKey

    /// - Parameters:
    ///   - intermediateMarker, leafMarker: whether the intermediate and the leaf carry Apple's marker extensions.
    ///   - validity: when every certificate is valid.
    public init(
        name: String = "Test", intermediateMarker: Bool = true, leafMarker: Bool = true,
        validity: ClosedRange<Date> = Date(timeIntervalSinceNow: -86_400 * 365)...Date(timeIntervalSinceNow: 86_400 * 365)
    ) throws {
        let rootKey = P256.Signing.PrivateKey()
        let intermediateKey = P256.Signing.PrivateKey()
        leafKey = P256.Signing.PrivateKey()
        let rootName = try DistinguishedName { CommonName("\(name) Root CA") }
        let intermediateName = try DistinguishedName { CommonName("\(name) WWDR Intermediate") }
        let leafName = try DistinguishedName { CommonName("\(name) App Store Signing") }
        root = try Certificate(
            version: .v3, serialNumber: .init(), publicKey: .init(rootKey.publicKey), notValidBefore: validity.lowerBound,
            notValidAfter: validity.upperBound, issuer: rootName, subject: rootName,
            extensions: try Certificate.Extensions {
                Critical(BasicConstraints.isCertificateAuthority(maxPathLength: nil))
                Critical(KeyUsage(keyCertSign: true))
            },
            issuerPrivateKey: .init(rootKey))
        intermediate = try Certificate(
            version: .v3, serialNumber: .init(), publicKey: .init(intermediateKey.publicKey), notValidBefore: validity.lowerBound,
            notValidAfter: validity.upperBound, issuer: rootName, subject: intermediateName,
            extensions: try Certificate.Extensions {
                Critical(BasicConstraints.isCertificateAuthority(maxPathLength: 0))
                Critical(KeyUsage(keyCertSign: true))
                if intermediateMarker { Self.marker(Self.intermediateMarker) }
            },
            issuerPrivateKey: .init(rootKey))
        leaf = try Certificate(
            version: .v3, serialNumber: .init(), publicKey: .init(leafKey.publicKey), notValidBefore: validity.lowerBound,
            notValidAfter: validity.upperBound, issuer: intermediateName, subject: leafName,
            extensions: try Certificate.Extensions {
                Critical(BasicConstraints.notCertificateAuthority)
                Critical(KeyUsage(digitalSignature: true))
                if leafMarker { Self.marker(Self.leafMarker) }
            },
            issuerPrivateKey: .init(intermediateKey))
    }

    /// Apple's marker extensions hold an ASN.1 NULL.
    private static func marker(_ oid: ASN1ObjectIdentifier) -> Certificate.Extension {
        Certificate.Extension(oid: oid, critical: false, value: [0x05, 0x00])
    }

    /// The root as PEM, for a policy's `root_certificates`.
    public var rootPEM: String {
        get throws { try root.serializeAsPEM().pemString }
    }

    /// `payload` signed as the App Store signs: ES256 by the leaf, with `x5c` holding leaf, intermediate and root.
    /// - Parameters:
    ///   - algorithm: the header's `alg`; the signature is ES256 whatever it says.
    ///   - chain: another `x5c`; `signingKey`: another key than the leaf's.
    public func sign(
        _ payload: [String: Any], algorithm: String = "ES256", chain: [Certificate]? = nil, signingKey: P256.Signing.PrivateKey? = nil
    ) throws -> String {
        let x5c = try (chain ?? [leaf, intermediate, root]).map { certificate in
            var serializer = DER.Serializer()
            try serializer.serialize(certificate)
            return Data(serializer.serializedBytes).base64EncodedString()
        }
        let key = signingKey ?? leafKey
        return try SignedToken.make(header: ["alg": algorithm, "x5c": x5c], payload: payload) { input in
            Array(try key.signature(for: input).rawRepresentation)
        }
    }
}
