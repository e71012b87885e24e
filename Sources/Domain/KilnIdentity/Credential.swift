public import KilnPolicy

/// What an app presents to say who its user is; which one decides the identity mode.
public enum Credential: Sendable, Hashable {
    /// A StoreKit 2 signed transaction (JWS): a paying user, identified by `originalTransactionId`.
    case appStoreTransaction(String)
    /// A signed `AppTransaction` (JWS): any user of the app, identified by `appTransactionId`.
    case appTransaction(String)
    /// A JWT from the app's own sign-in, identified by its `sub`.
    case userToken(String)
    /// A device id the app made up: nothing vouches for it, so it gets the lowest tier.
    case anonymousDevice(String)
    /// An identity and tier asserted by the tenant's own backend with the tenant's secret key.
    case trustedServer(identity: String, tier: String?)

    public var mode: IdentityMode {
        switch self {
        case .appStoreTransaction, .appTransaction: .appStore
        case .userToken: .jwt
        case .anonymousDevice: .anonymousDevice
        case .trustedServer: .trustedServer
        }
    }
}
