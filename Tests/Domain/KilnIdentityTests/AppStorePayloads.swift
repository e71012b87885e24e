import Foundation
import IdentityFixtures

/// What the App Store signs, as JSON objects, with the fields a test changes.
enum AppStorePayloads {
    static func transaction(now: Date = Date(), _ changes: [String: Any] = [:]) -> [String: Any] {
        var payload: [String: Any] = [
            "originalTransactionId": "2000000000000001", "transactionId": "2000000000000009", "bundleId": TestPolicy.bundleID,
            "productId": "pro_monthly", "type": "Auto-Renewable Subscription", "inAppOwnershipType": "PURCHASED",
            "environment": "Production", "purchaseDate": SignedToken.milliseconds(now.addingTimeInterval(-86_400)),
            "signedDate": SignedToken.milliseconds(now), "expiresDate": SignedToken.milliseconds(now.addingTimeInterval(29 * 86_400)),
        ]
        payload.merge(changes) { $1 }
        return payload
    }

    static func appTransaction(now: Date = Date(), _ changes: [String: Any] = [:]) -> [String: Any] {
        var payload: [String: Any] = [
            "appTransactionId": "704289572311849112", "bundleId": TestPolicy.bundleID, "appAppleId": 1_234_567_890,
            "receiptType": "Production", "receiptCreationDate": SignedToken.milliseconds(now), "originalPlatform": "iOS",
            "originalApplicationVersion": "1.0", "applicationVersion": "1.2",
        ]
        payload.merge(changes) { $1 }
        return payload
    }
}
