/// Who the end user is, as the app proves it on each request (the tenant's policy says which it accepts; see
/// docs/identity.md). The configuration's provider is asked before every request, so a renewed token or a new purchase
/// is used as soon as the app has it.
public enum Credential: Sendable, Equatable {
    /// `AppTransaction.shared`'s `jwsRepresentation`: one identity per Apple Account, at the tenant's lowest tier unless
    /// an entitlement says otherwise.
    case appTransaction(jws: String)
    /// A StoreKit 2 `Transaction`'s `jwsRepresentation`: the purchase's tier while it is neither expired nor revoked.
    case appStoreTransaction(jws: String)
    /// A JWT from the app's own sign-in: its `sub` is the identity (`u:<sub>` when it starts with `ot:`, `at:`, `d:` or `u:`).
    case userToken(String)
    /// No credential but the device (``KilnConfiguration/device``): the anonymous identity of that device, at the
    /// lowest tier.
    case anonymousDevice
    /// An identity asserted by the tenant's own backend, and optionally its tier (`trusted_server`): for servers and
    /// tests, never an app, since anyone holding the key could assert anyone.
    case trustedServer(identity: String, tier: String? = nil)

    /// The request headers that carry it.
    var headers: [(name: String, value: String)] {
        switch self {
        case .appTransaction(let jws): [("Kiln-App-Transaction", jws)]
        case .appStoreTransaction(let jws): [("Kiln-App-Store-Transaction", jws)]
        case .userToken(let token): [("Kiln-User-Token", token)]
        case .anonymousDevice: []
        case .trustedServer(let identity, let tier): [("Kiln-Identity", identity)] + (tier.map { [("Kiln-Tier", $0)] } ?? [])
        }
    }
}
