import KilnCore
import KilnStore

/// Who is calling: the tenant its API key names, and the end user the tenant vouches for.
struct Caller: Sendable {
    let tenant: Tenant
    let identity: Identity
    /// The device the end user submits from (`Kiln-Device`), whose cooldowns apply; nil when the app sent none.
    var device: String? = nil
    /// The tier the tenant's server asserts for the end user (`Kiln-Tier`); nil means the tenant's lowest.
    var assertedTier: String? = nil
    /// The client's IP address (see ``APIConfiguration/clientAddressHeader``), for per-IP velocity.
    var address: String? = nil
}
