public import KilnCore
public import KilnPolicy

/// Who a verified credential says the user is, and the tier it entitles them to.
public struct VerifiedIdentity: Sendable, Equatable {
    public let mode: IdentityMode
    /// Whose quota and jobs these are, in its mode's namespace (``IdentityNamespace``, reference §4.4), so that no
    /// mode's value can name another mode's identity: `ot:<originalTransactionId>`, `at:<appTransactionId>`,
    /// `d:<device id>`; a JWT's `sub` as it is, the app's own user id as its RevenueCat and Adapty webhooks and partner
    /// links name it, or `u:<sub>` when the `sub` starts with one of those prefixes or `u:`. A trusted server's identity
    /// is taken as given: the tenant's backend may act for any of its users.
    public let identity: Identity
    /// The name of the tier the credential establishes: a trusted server's assertion, a verified purchase's product,
    /// the lowest for a device. Nil when it establishes none: the identity's entitlements decide, else the lowest.
    public let tierName: String?

    public init(mode: IdentityMode, identity: Identity, tierName: String?) {
        self.mode = mode
        self.identity = identity
        self.tierName = tierName
    }
}
