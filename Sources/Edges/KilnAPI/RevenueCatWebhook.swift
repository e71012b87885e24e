import Foundation
import KilnCore
import KilnPolicy

/// A RevenueCat webhook, the fields Kiln reads (`event.id`, `type`, `app_user_id`, `entitlement_ids`, `product_id`,
/// `expiration_at_ms`, `event_timestamp_ms`, `cancel_reason`). RevenueCat retries with the same `id`.
struct RevenueCatWebhook: Decodable {
    struct Event: Decodable {
        let id: String
        let type: String
        let appUserId: String
        let entitlementIds: [String]?
        let productId: String?
        let expirationAtMs: WebhookTime.Milliseconds?
        let eventTimestampMs: WebhookTime.Milliseconds
        let cancelReason: String?
    }

    let event: Event

    /// Why the event cannot be applied (a `400 invalid_webhook`), or nil when it can: a user id no identity could have,
    /// or an event id longer than PostgreSQL's index of applied events takes.
    var defect: String? {
        if Identity(validating: event.appUserId) == nil { return "event.app_user_id must be 1–128 printable characters without spaces" }
        if !(1...255).contains(event.id.utf8.count) { return "event.id must be 1–255 bytes long" }
        return nil
    }

    /// The entitlement the event sets, or nil for an event that changes none (a test, a billing issue, a cancelled
    /// renewal that still runs to its end). A purchase names its tier by entitlement id, else by product id.
    func entitlement(tenant: TenantID, policy: TenantPolicy) -> Entitlement? {
        let eventAt = event.eventTimestampMs.date
        func set(_ tier: Tier, until expiresAt: Date?) -> Entitlement {
            Entitlement(
                tenant: tenant, identity: event.appUserId, tier: tier.name, expiresAt: expiresAt, source: .revenueCat,
                productID: event.productId, eventAt: eventAt)
        }
        switch event.type {
        case "INITIAL_PURCHASE", "RENEWAL", "UNCANCELLATION", "NON_RENEWING_PURCHASE", "PRODUCT_CHANGE", "SUBSCRIPTION_EXTENDED",
            "TEMPORARY_ENTITLEMENT_GRANT":
            let tier =
                (event.entitlementIds ?? []).lazy.compactMap(policy.tier(forEntitlement:)).first
                ?? event.productId.flatMap(policy.tier(forProduct:))
            guard let tier else { return nil }
            return set(tier, until: event.expirationAtMs?.date)
        case "CANCELLATION" where event.cancelReason == "CUSTOMER_SUPPORT":
            // A refund: the entitlement ends now.
            return set(policy.lowestTier, until: nil)
        case "EXPIRATION":
            return set(policy.lowestTier, until: nil)
        default:
            return nil
        }
    }
}
