public import Foundation

/// A tier an identity paid for, as a store or subscription platform reported it.
public struct Entitlement: Sendable, Equatable {
    public enum Source: String, Sendable {
        case appStore = "app_store"
        case revenueCat = "revenuecat"
        case adapty
    }

    public var tenant: TenantID
    public var identity: String
    public var tier: String
    /// When it ends; nil for no end. A refund or revocation ends it at once.
    public var expiresAt: Date?
    public var source: Source
    public var productID: String?
    /// When the event that reported it happened: an older event never overwrites a newer one.
    public var eventAt: Date

    public init(tenant: TenantID, identity: String, tier: String, expiresAt: Date?, source: Source, productID: String?, eventAt: Date) {
        self.tenant = tenant
        self.identity = identity
        self.tier = tier
        self.expiresAt = expiresAt
        self.source = source
        self.productID = productID
        self.eventAt = eventAt
    }
}
