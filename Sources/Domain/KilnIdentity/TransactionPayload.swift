import Foundation
import JWTKit

/// The JSON of a StoreKit 2 signed transaction (Apple's `JWSTransactionDecodedPayload`), the fields Kiln reads.
/// Dates are milliseconds since 1970.
struct TransactionPayload: AppStorePayload {
    var originalTransactionId: String?
    var transactionId: String?
    var bundleId: String?
    var productId: String?
    /// `Production`, `Sandbox`, `Xcode` or `LocalTesting`.
    var environment: String?
    var signedDate: Double?
    var expiresDate: Double?
    var revocationDate: Double?
    /// `PURCHASED` or `FAMILY_SHARED`.
    var inAppOwnershipType: String?
    var isUpgraded: Bool?

    var signedAt: Date? { signedDate.map(Date.init(millisecondsSince1970:)) }

    /// Nothing to check here: ``AppStoreVerifier`` checks the claims against its settings and the caller's clock.
    func verify(using algorithm: some JWTAlgorithm) async throws {}
}
