import Foundation
import JWTKit

/// The JSON of a signed `AppTransaction` (Apple's `AppTransaction` model), the fields Kiln reads. Dates are
/// milliseconds since 1970.
struct AppTransactionPayload: AppStorePayload {
    var appTransactionId: String?
    var bundleId: String?
    var appAppleId: Int64?
    /// The environment, as `Production`, `Sandbox`, `Xcode` or `LocalTesting`.
    var receiptType: String?
    /// When the App Store signed it.
    var receiptCreationDate: Double?

    var signedAt: Date? { receiptCreationDate.map(Date.init(millisecondsSince1970:)) }

    /// Nothing to check here: ``AppStoreVerifier`` checks the claims against its settings.
    func verify(using algorithm: some JWTAlgorithm) async throws {}
}
