public import Foundation
public import KilnCore

/// One app's rules of admission: who its users are, what each tier may do per day, what each kind costs, when the
/// day resets, and when abuse detection steps in. Built only by ``PolicySet`` from a validated file, so its
/// invariants hold: exactly one lowest tier, every kind priced, every name it mentions defined.
public struct TenantPolicy: Sendable, Equatable {
    public let tenant: TenantID
    public let identityModes: Set<IdentityMode>
    /// How App Store credentials are verified; set exactly when `identityModes` has ``IdentityMode/appStore``.
    public let appStore: AppStoreSettings?
    /// How JWTs are verified; set exactly when `identityModes` has ``IdentityMode/jwt``.
    public let jwt: JWTSettings?
    /// The tenant's MCP endpoint, if it has one; it takes the `jwt` settings' tokens issued for its resource.
    public let mcp: MCPSettings?
    /// Every tier, by name.
    public let tiers: [String: Tier]
    /// The tier of identities that bought nothing.
    public let lowestTier: Tier
    /// Every kind the tenant offers, by name (`text.continue`).
    public let kinds: [String: KindCost]
    /// The IANA time zone whose midnight starts each quota day.
    public let resetTimeZone: TimeZone
    public let abuse: AbuseThresholds
    public let safety: SafetyStrictness
    /// Partners may link and share one entitlement and quota pool (Veramo); after unlinking, neither may link again
    /// for this long. nil: the tenant offers no partner links.
    public let partnerUnlinkCooldown: Duration?
    /// How long its users' inputs, uploads, results and artifacts are kept (``RetentionPeriods/standard`` when the
    /// file gives none).
    public let retention: RetentionPeriods
    /// Built once: a quota day is needed on every metered admission.
    private let days: QuotaDays
    private let tierNamesByProduct: [String: String]
    private let tierNamesByEntitlement: [String: String]

    init(
        tenant: TenantID,
        identityModes: Set<IdentityMode>,
        appStore: AppStoreSettings?,
        jwt: JWTSettings?,
        mcp: MCPSettings?,
        tiers: [String: Tier],
        lowestTier: Tier,
        kinds: [String: KindCost],
        resetTimeZone: TimeZone,
        abuse: AbuseThresholds,
        safety: SafetyStrictness,
        partnerUnlinkCooldown: Duration?,
        retention: RetentionPeriods
    ) {
        self.tenant = tenant
        self.identityModes = identityModes
        self.appStore = appStore
        self.jwt = jwt
        self.mcp = mcp
        self.tiers = tiers
        self.lowestTier = lowestTier
        self.kinds = kinds
        self.resetTimeZone = resetTimeZone
        self.abuse = abuse
        self.safety = safety
        self.partnerUnlinkCooldown = partnerUnlinkCooldown
        self.retention = retention
        self.days = QuotaDays(timeZone: resetTimeZone)
        // Parsing has checked that no product or entitlement grants two tiers.
        self.tierNamesByProduct = Dictionary(
            tiers.values.flatMap { tier in tier.products.map { ($0, tier.name) } }, uniquingKeysWith: { first, _ in first })
        self.tierNamesByEntitlement = Dictionary(
            tiers.values.flatMap { tier in tier.entitlements.map { ($0, tier.name) } }, uniquingKeysWith: { first, _ in first })
    }

    /// The tier an App Store or RevenueCat product id grants; nil for a product this tenant does not sell.
    public func tier(forProduct productID: String) -> Tier? {
        tierNamesByProduct[productID].flatMap { tiers[$0] }
    }

    /// The tier a RevenueCat entitlement id or an Adapty access level grants; nil for one this tenant does not use.
    public func tier(forEntitlement entitlement: String) -> Tier? {
        tierNamesByEntitlement[entitlement].flatMap { tiers[$0] }
    }

    /// What one job of `kind` takes from the day of an identity in `tier`.
    public func cost(of kind: String, tier: Tier) -> Charge {
        guard let kindCost = kinds[kind] else { return .notOffered }
        guard !tier.excludedKinds.contains(kind) else { return .excludedFromTier }
        return .units(kindCost.cost(forTier: tier.name), of: kindCost.quotaClass)
    }

    /// The quota day that `date` falls in, in the tenant's reset time zone. Takes the time as an argument so that
    /// tests, and scripts that must agree with Redis's clock, choose it.
    public func dayWindow(containing date: Date) -> QuotaDay {
        days.day(containing: date)
    }
}
