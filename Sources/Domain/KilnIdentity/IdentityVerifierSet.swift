public import KilnCore
import KilnPolicy

/// Every tenant's ``IdentityVerifier``, built from the policies (see `IdentityVerifierSet+Loading.swift`).
public struct IdentityVerifierSet: Sendable {
    public let verifiers: [TenantID: IdentityVerifier]

    public init(verifiers: [TenantID: IdentityVerifier]) {
        self.verifiers = verifiers
    }

    public subscript(tenant: TenantID) -> IdentityVerifier? { verifiers[tenant] }

    /// No tenant verifies identities: every tenant keeps the trusted `Kiln-Identity` of tenants without a policy.
    public static let none = IdentityVerifierSet(verifiers: [:])
}
