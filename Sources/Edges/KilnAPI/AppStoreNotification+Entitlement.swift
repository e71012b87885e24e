import Foundation
import KilnCore
import KilnIdentity
import KilnPolicy

extension AppStoreNotification {
    /// The entitlement the notification sets for the paying identity (`ot:<originalTransactionId>`, as a signed
    /// transaction identifies it), or nil for one that changes none: a purchase or renewal grants its product's tier
    /// while the transaction entitles (not revoked, expired or upgraded); an expiry, refund or revocation ends it.
    func entitlement(tenant: TenantID, policy: TenantPolicy, now: Date) -> Entitlement? {
        guard let transaction else { return nil }
        let tier: Tier
        switch type {
        case "SUBSCRIBED", "DID_RENEW", "OFFER_REDEEMED", "DID_CHANGE_RENEWAL_PREF", "ONE_TIME_CHARGE", "REFUND_REVERSED", "RENEWAL_EXTENDED":
            tier = transaction.entitledProduct(at: now).flatMap(policy.tier(forProduct:)) ?? policy.lowestTier
        case "EXPIRED", "GRACE_PERIOD_EXPIRED", "REFUND", "REVOKE":
            tier = policy.lowestTier
        default:
            return nil
        }
        return Entitlement(
            tenant: tenant, identity: IdentityNamespace.appStoreTransaction.name(transaction.originalTransactionID), tier: tier.name,
            expiresAt: tier == policy.lowestTier ? nil : transaction.expiresDate, source: .appStore, productID: transaction.productID,
            eventAt: signedDate ?? now)
    }
}
