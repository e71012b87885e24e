/// A way an end user's identity is established; a tenant lists the modes it accepts.
public enum IdentityMode: String, Sendable, Hashable, CaseIterable {
    /// A signed App Store transaction (`originalTransactionId`), or for free users the signed `AppTransaction`
    /// (`appTransactionId`), so one Apple Account shares one quota across its devices without a login.
    case appStore = "app_store"
    /// A JWT from the app's own sign-in (Firebase, Supabase, …): the identity is its `sub`, escaped when it starts with
    /// another mode's prefix (`KilnCore.IdentityNamespace`).
    case jwt
    /// A device id the app makes up: unverifiable, so it only ever gets the lowest tier.
    case anonymousDevice = "anonymous_device"
    /// The tenant's own backend, holding its secret key, asserts the identity and its tier.
    case trustedServer = "trusted_server"
}
