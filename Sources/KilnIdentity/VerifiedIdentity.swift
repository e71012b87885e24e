public import KilnCore
public import KilnPolicy

/// Who a verified credential says the user is, and the tier it entitles them to.
public struct VerifiedIdentity: Sendable, Equatable {
    public let mode: IdentityMode
    /// Whose quota and jobs these are. App Store ids and device ids carry a prefix, so that neither an App Store id
    /// space nor a made-up device id can name another mode's identity (reference §4.4): `ot:<originalTransactionId>`,
    /// `at:<appTransactionId>`, `d:<device id>`. A JWT's `sub` is taken as it is, the app's own user id, as its
    /// RevenueCat and Adapty webhooks and partner links name it; so is a trusted server's identity: the tenant's
    /// backend may act for any of its users.
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
