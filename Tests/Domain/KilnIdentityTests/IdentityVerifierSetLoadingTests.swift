import Crypto
import Foundation
import IdentityFixtures
import KilnCore
import KilnIdentity
import KilnPolicy
import SwiftASN1
import Testing
import X509

/// What the policies name is read at start: root certificates, key sets and secrets, each mistake named by its field.
@Suite struct IdentityVerifierSetLoadingTests {
    static let deploy = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
        .appendingPathComponent("deploy")
    static let secrets = [
        "KILN_JOANIE_JWT_SECRET": String(repeating: "j", count: 32), "KILN_VERAMO_JWT_SECRET": String(repeating: "v", count: 32),
    ]

    /// A fresh directory for files a policy names.
    static func directory() throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("kiln-identity-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory
    }

    static func loadError(_ policies: PolicySet, directory: URL, environment: [String: String] = [:]) -> String? {
        let error = #expect(throws: PolicyError.self) {
            try IdentityVerifierSet.load(policies: policies, directory: directory, environment: environment)
        }
        return error?.description
    }

    @Test func theCheckedInPoliciesLoadWithTheirSecretsSet() throws {
        let policies = try PolicySet.load(path: Self.deploy.appendingPathComponent("policies.json").path)
        let verifiers = try IdentityVerifierSet.load(policies: policies, directory: Self.deploy, environment: Self.secrets)
        #expect(Set(verifiers.verifiers.keys) == Set(policies.tenants.keys))
        let error = Self.loadError(policies, directory: Self.deploy, environment: ["KILN_VERAMO_JWT_SECRET": String(repeating: "v", count: 32)])
        #expect(error == "joanie.jwt.hs256_secret_env: the environment variable KILN_JOANIE_JWT_SECRET is not set")
    }

    @Test func theShippedAppleRootIsAppleRootCAG3() throws {
        // The SHA-256 fingerprint Apple publishes for Apple Root CA - G3 (apple.com/certificateauthority).
        let expected = "63343abfb89a6a03ebb57e9b3f5fa7be7c4f5c756f3017b3a8c488c3653e9179"
        let pem = try String(contentsOf: Self.deploy.appendingPathComponent("apple/AppleRootCA-G3.pem"), encoding: .utf8)
        let root = try Certificate(pemEncoded: pem)
        var serializer = DER.Serializer()
        try serializer.serialize(root)
        #expect(SHA256.hash(data: serializer.serializedBytes).hexString == expected)
        #expect(root.subject == root.issuer)
        #expect(root.subject.description.contains("Apple Root CA - G3"))
    }

    @Test func aRootThatIsNotThereIsNamed() throws {
        let directory = try Self.directory()
        let error = Self.loadError(try TestPolicy.policies(modes: [.appStore], rootPath: "apple/missing.pem"), directory: directory)
        #expect(error == "talevonia.app_store.root_certificates[0]: cannot read \(directory.path)/apple/missing.pem: No such file or directory")
    }

    @Test func aRootThatIsNotACertificateIsNamed() throws {
        let directory = try Self.directory()
        try Data("-----BEGIN CERTIFICATE-----\nnot base64\n-----END CERTIFICATE-----\n".utf8).write(to: directory.appendingPathComponent("root.pem"))
        let error = Self.loadError(try TestPolicy.policies(modes: [.appStore]), directory: directory)
        #expect(error == "talevonia.app_store.root_certificates[0]: root.pem is not a PEM or DER certificate")
    }

    @Test func aRootIsTakenAsPEMOrAsDERAndAnAbsolutePathAsIs() async throws {
        let directory = try Self.directory()
        let apple = try TestCertificateAuthority(name: "Apple")
        var serializer = DER.Serializer()
        try serializer.serialize(apple.root)
        try Data(serializer.serializedBytes).write(to: directory.appendingPathComponent("root.cer"))
        try Data(try apple.rootPEM.utf8).write(to: directory.appendingPathComponent("root.pem"))
        let tenant = try #require(TenantID(validating: "talevonia"))
        for path in ["root.pem", directory.appendingPathComponent("root.cer").path] {
            let verifiers = try IdentityVerifierSet.load(
                policies: try TestPolicy.policies(modes: [.appStore], rootPath: path), directory: directory, environment: [:])
            let jws = try apple.sign(AppStorePayloads.transaction())
            #expect(try await verifiers[tenant]?.verify(.appStoreTransaction(jws), now: Date()).tierName == "pro")
        }
    }

    @Test func aSecretTooShortIsNamed() throws {
        let error = Self.loadError(
            try TestPolicy.policies(modes: [.jwt]), directory: try Self.directory(), environment: [TestPolicy.secretVariable: "hunter2"])
        #expect(error == "talevonia.jwt.hs256_secret_env: the HS256 secret is 7 bytes; at least 32 are needed")
    }

    @Test func aKeySetThatIsNotOneIsNamed() throws {
        let directory = try Self.directory()
        try Data("<html>not found</html>".utf8).write(to: directory.appendingPathComponent("jwks.json"))
        let policies = try TestPolicy.policies(modes: [.jwt], keys: #""jwks_file": "jwks.json""#)
        let error = Self.loadError(policies, directory: directory)
        #expect(error == #"talevonia.jwt.jwks_file: not a JSON Web Key Set ({"keys": [...]}) with keys of type RSA or EC"#)
    }
}
