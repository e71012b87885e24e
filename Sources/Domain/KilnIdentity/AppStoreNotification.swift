public import Foundation

/// An App Store Server Notification V2 whose signature, bundle id and environment, and those of its transaction, have
/// been verified.
public struct AppStoreNotification: Sendable, Equatable {
    /// `SUBSCRIBED`, `DID_RENEW`, `EXPIRED`, `REFUND`, `REVOKE`, …
    public let type: String
    public let subtype: String?
    /// The same for every retry of one notification: what it is deduplicated by.
    public let uuid: String
    public let signedDate: Date?
    /// The transaction it is about; nil for notifications about none (`TEST`).
    public let transaction: AppStoreTransaction?

    public init(type: String, subtype: String?, uuid: String, signedDate: Date?, transaction: AppStoreTransaction?) {
        self.type = type
        self.subtype = subtype
        self.uuid = uuid
        self.signedDate = signedDate
        self.transaction = transaction
    }
}
