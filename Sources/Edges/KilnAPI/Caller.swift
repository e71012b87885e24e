import KilnAdmission
import KilnCore
import KilnPolicy
import KilnStore

/// Who is calling: the tenant its API key names, and the end user its identity mode established.
struct Caller: Sendable {
    let tenant: Tenant
    let identity: Identity
    /// The device the end user submits from (`Kiln-Device`), whose cooldowns apply; nil when the app sent none.
    var device: String? = nil
    /// The tier the tenant's server asserts (`Kiln-Tier`, the trusted-server mode): it is final. Always nil for a tenant
    /// without a policy: its jobs are not metered.
    var assertedTier: Tier? = nil
    /// The tier a verified App Store purchase grants; an entitlement on record (a refund the App Store notified) wins
    /// over it.
    var purchasedTier: Tier? = nil
    /// The client's IP address (see ``APIConfiguration/clientAddressHeader``), for per-IP velocity.
    var address: String? = nil
}

extension Caller {
    /// The caller as admission sees it.
    var applicant: Applicant {
        Applicant(
            tenant: tenant.id, identity: identity, device: device, assertedTier: assertedTier, purchasedTier: purchasedTier,
            address: address)
    }
}
