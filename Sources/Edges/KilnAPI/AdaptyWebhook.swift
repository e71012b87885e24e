import Foundation
import KilnCore
import KilnPolicy

/// An Adapty webhook, the fields Kiln reads: `event_type`, `event_datetime`, `customer_user_id` (the app's own user
/// id, the identity), `profile_id`, and in `event_properties` `access_level_id`, `profile_has_access_level`,
/// `subscription_expires_at` and `vendor_transaction_id`. Adapty sends no event id: an event is known by its profile,
/// type, time and transaction.
struct AdaptyWebhook: Decodable {
    struct Properties: Decodable {
        let accessLevelId: String?
        let profileHasAccessLevel: Bool?
        let subscriptionExpiresAt: String?
        let vendorTransactionId: String?
        let vendorProductId: String?
    }

    let eventType: String
    let eventDatetime: String
    let customerUserId: String?
    let profileId: String
    let eventProperties: Properties?

    /// What identifies the event across Adapty's retries.
    var eventID: String {
        Digest.sha256Hex([profileId, eventType, eventDatetime, eventProperties?.vendorTransactionId ?? ""].joined(separator: "\n"))
    }

    /// Why the event cannot be applied (a `400 invalid_webhook`), or nil when it can: a user id no identity could have,
    /// or a time that cannot be read (an expiry read as none would grant the tier for ever).
    var defect: String? {
        if let customerUserId, Identity(validating: customerUserId) == nil {
            return "customer_user_id must be 1–128 printable characters without spaces"
        }
        if Self.date(eventDatetime) == nil { return "event_datetime must be a time between 2000 and 9999" }
        if let expiry = eventProperties?.subscriptionExpiresAt, Self.date(expiry) == nil {
            return "event_properties.subscription_expires_at must be a time between 2000 and 9999"
        }
        return nil
    }

    /// The entitlement the event sets, or nil for one that changes none (or names no identity or tier).
    func entitlement(tenant: TenantID, policy: TenantPolicy) -> Entitlement? {
        guard let identity = customerUserId, let eventAt = Self.date(eventDatetime) else { return nil }
        func set(_ tier: Tier, until expiresAt: Date?) -> Entitlement {
            Entitlement(
                tenant: tenant, identity: identity, tier: tier.name, expiresAt: expiresAt, source: .adapty,
                productID: eventProperties?.vendorProductId, eventAt: eventAt)
        }
        switch eventType {
        case "access_level_updated" where eventProperties?.profileHasAccessLevel == false,
            "subscription_expired", "subscription_refunded", "trial_expired":
            return set(policy.lowestTier, until: nil)
        case "subscription_started", "subscription_renewed", "subscription_renewal_reactivated", "trial_started", "trial_converted",
            "non_subscription_purchase", "access_level_updated":
            guard let tier = eventProperties?.accessLevelId.flatMap(policy.tier(forEntitlement:)) else { return nil }
            return set(tier, until: eventProperties?.subscriptionExpiresAt.flatMap(Self.date))
        default:
            return nil
        }
    }

    /// Adapty writes times as `2023-02-10T20:03:22.000000+0000`; plain ISO 8601 is read too. A time no store sends
    /// (``WebhookTime/plausible``) is not read.
    static func date(_ text: String) -> Date? {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        for format in ["yyyy-MM-dd'T'HH:mm:ss.SSSSSSZ", "yyyy-MM-dd'T'HH:mm:ssZ", "yyyy-MM-dd'T'HH:mm:ss.SSSZZZZZ", "yyyy-MM-dd'T'HH:mm:ssZZZZZ"] {
            formatter.dateFormat = format
            if let date = formatter.date(from: text) { return WebhookTime.plausible.contains(date) ? date : nil }
        }
        return nil
    }
}
