import Foundation
import JWTKit

/// The JSON of an App Store Server Notification V2 (Apple's `ResponseBodyV2DecodedPayload`), the fields Kiln reads.
struct NotificationPayload: AppStorePayload {
    struct Data: Codable, Sendable {
        var bundleId: String?
        /// `Production` or `Sandbox`.
        var environment: String?
        /// The transaction the notification is about, itself signed.
        var signedTransactionInfo: String?
    }

    var notificationType: String?
    var subtype: String?
    var notificationUUID: String?
    var signedDate: Double?
    var data: Data?

    var signedAt: Date? { signedDate.map(Date.init(millisecondsSince1970:)) }

    /// Nothing to check here: ``AppStoreVerifier`` checks the claims against its settings.
    func verify(using algorithm: some JWTAlgorithm) async throws {}
}
