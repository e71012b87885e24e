public import KilnCore
public import KilnPolicy

/// Who a verified credential says the user is, and the tier it entitles them to.
public struct VerifiedIdentity: Sendable, Equatable {
    public let mode: IdentityMode
    /// Whose quota and jobs these are. Each verified mode has its own prefix, so that no credential of one mode can
    /// name the identity of another (reference §4.4): `ot:<originalTransactionId>`, `at:<appTransactionId>`,
    /// `u:<sub>`, `d:<device id>`. A trusted server's identity is taken as it is given: the tenant's backend may act
    /// for any of its users.
    public let identity: Identity
    /// The name of the tier the credential entitles to; nil for the tenant's lowest.
    public let tierName: String?

    public init(mode: IdentityMode, identity: Identity, tierName: String?) {
        self.mode = mode
        self.identity = identity
        self.tierName = tierName
    }
}
