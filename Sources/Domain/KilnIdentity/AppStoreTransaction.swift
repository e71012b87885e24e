public import Foundation

/// A StoreKit 2 transaction whose signature, bundle id and environment have been verified.
public struct AppStoreTransaction: Sendable, Equatable {
    /// The same for every renewal, restore and device of one purchase: the identity of a paying user.
    public let originalTransactionID: String
    public let transactionID: String
    public let productID: String
    /// When the App Store signed this copy of the transaction.
    public let signedDate: Date?
    /// When the subscription period ends; nil for purchases that do not expire.
    public let expiresDate: Date?
    /// When Apple refunded or revoked it (a refund, or family sharing stopped); nil while it stands.
    public let revocationDate: Date?
    /// `PURCHASED`, or `FAMILY_SHARED` for a family member's own transaction (own ids, so an own quota).
    public let ownershipType: String?
    /// The user moved to another subscription of the group; the newer transaction is the one that counts.
    public let isUpgraded: Bool

    public init(
        originalTransactionID: String, transactionID: String, productID: String, signedDate: Date?, expiresDate: Date?,
        revocationDate: Date?, ownershipType: String?, isUpgraded: Bool
    ) {
        self.originalTransactionID = originalTransactionID
        self.transactionID = transactionID
        self.productID = productID
        self.signedDate = signedDate
        self.expiresDate = expiresDate
        self.revocationDate = revocationDate
        self.ownershipType = ownershipType
        self.isUpgraded = isUpgraded
    }

    /// The product the transaction entitles its owner to at `date`, or nil when it no longer does: revoked, expired
    /// or upgraded. Apple's library leaves these checks to the server (reference §4.2); a transaction that fails them
    /// still identifies its user, who is downgraded rather than refused.
    public func entitledProduct(at date: Date) -> String? {
        guard revocationDate == nil, !isUpgraded else { return nil }
        if let expiresDate, expiresDate <= date { return nil }
        return productID
    }
}
