public import KilnCore
public import KilnPolicy

/// Who asks for a job, as admission sees it: the end user and its tenant, its device and address, and what its
/// tenant's server or the App Store said about its tier. The tiers are the tenant's own: the API resolves the names it
/// is sent against the tenant's policy as it reads them, and refuses a name the policy does not have.
public struct Applicant: Sendable {
    public var tenant: TenantID
    public var identity: Identity
    /// The device the end user submits from, whose cooldowns apply; nil when the app sent none.
    public var device: String?
    /// The tier the tenant's server asserts (the trusted-server mode): it is final.
    public var assertedTier: Tier?
    /// The tier a verified App Store purchase grants; an entitlement on record (a refund the App Store notified) wins
    /// over it.
    public var purchasedTier: Tier?
    /// The client's IP address, for per-IP velocity; nil when unknown.
    public var address: String?

    public init(
        tenant: TenantID, identity: Identity, device: String? = nil, assertedTier: Tier? = nil, purchasedTier: Tier? = nil,
        address: String? = nil
    ) {
        self.tenant = tenant
        self.identity = identity
        self.device = device
        self.assertedTier = assertedTier
        self.purchasedTier = purchasedTier
        self.address = address
    }
}
