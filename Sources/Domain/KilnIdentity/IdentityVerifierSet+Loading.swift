public import Foundation
import KilnCore
public import KilnPolicy
import SwiftASN1
import X509

extension IdentityVerifierSet {
    /// The verifiers of every tenant of `policies`, with the root certificates, key sets and secrets their settings
    /// name read now, so that a missing or wrong one stops the process at start rather than refusing users later.
    /// - Parameters:
    ///   - directory: where relative paths in the policies start: the policy file's directory.
    ///   - environment: the variables that HS256 secrets are read from (the process's environment, which only the
    ///     executable reads).
    ///   - cache: shared by all tenants; its keys include the tenant.
    /// - Throws: ``PolicyError`` naming the field whose file or variable is missing or unusable.
    public static func load(
        policies: PolicySet, directory: URL, environment: [String: String], cache: VerificationCache = VerificationCache()
    ) throws -> IdentityVerifierSet {
        var verifiers: [TenantID: IdentityVerifier] = [:]
        // In key order, so that of several mistakes the same one is always reported, as for the file itself.
        for (tenant, policy) in policies.tenants.sorted(by: { $0.key.rawValue < $1.key.rawValue }) {
            verifiers[tenant] = IdentityVerifier(
                policy: policy,
                appStore: try policy.appStore.map { try appStoreVerifier($0, directory: directory) },
                userTokens: try policy.jwt.map { try userTokenVerifier($0, audience: $0.audience, directory: directory, environment: environment) },
                mcpTokens: try policy.jwt.flatMap { jwt in
                    try policy.mcp.map { mcp in
                        try userTokenVerifier(jwt, audience: mcp.resource.absoluteString, directory: directory, environment: environment)
                    }
                },
                cache: cache)
        }
        return IdentityVerifierSet(verifiers: verifiers)
    }

    private static func appStoreVerifier(_ settings: AppStoreSettings, directory: URL) throws(PolicyError) -> AppStoreVerifier {
        var roots: [Certificate] = []
        for reference in settings.rootCertificates {
            let bytes = try read(reference, directory: directory)
            // PEM as most tools write it, or DER as Apple publishes its roots (AppleRootCA-G3.cer).
            let text = String(decoding: bytes, as: UTF8.self)
            guard let root = text.contains("-----BEGIN") ? try? Certificate(pemEncoded: text) : try? Certificate(derEncoded: Array(bytes)) else {
                throw reference.failure("\(reference.value) is not a PEM or DER certificate")
            }
            roots.append(root)
        }
        return AppStoreVerifier(
            rootCertificates: roots, bundleID: settings.bundleID, environment: settings.environment, appAppleID: settings.appAppleID)
    }

    /// Verifies the JWTs of `settings`' issuer and keys that are for `audience`: the app's sign-in's, or its MCP
    /// endpoint's.
    private static func userTokenVerifier(
        _ settings: JWTSettings, audience: String, directory: URL, environment: [String: String]
    ) throws(PolicyError) -> UserTokenVerifier {
        let keys: UserTokenVerifier.Keys
        let reference: PolicyReference
        switch settings.keys {
        case .hs256SecretVariable(let variable):
            guard let secret = environment[variable.value], !secret.isEmpty else {
                throw variable.failure("the environment variable \(variable.value) is not set")
            }
            keys = .hs256Secret(Array(secret.utf8))
            reference = variable
        case .jwksFile(let file):
            keys = .keySet(String(decoding: try read(file, directory: directory), as: UTF8.self))
            reference = file
        }
        do {
            return try UserTokenVerifier(issuer: settings.issuer, audience: audience, keys: keys)
        } catch {
            throw reference.failure("\(error)")
        }
    }

    private static func read(_ reference: PolicyReference, directory: URL) throws(PolicyError) -> Data {
        let url = reference.value.hasPrefix("/") ? URL(fileURLWithPath: reference.value) : directory.appendingPathComponent(reference.value)
        do {
            return try Data(contentsOf: url)
        } catch {
            // Say why, as the policy file's own loading does: a file missing from the image is the usual mistake.
            let why = ((error as? CocoaError)?.underlying as? POSIXError).map { ": \(String(cString: strerror($0.code.rawValue)))" }
            throw reference.failure("cannot read \(url.path)\(why ?? "")")
        }
    }
}
