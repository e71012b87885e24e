public import Foundation
public import KilnPolicy
public import X509

/// Verifies what the App Store signs for one app: StoreKit 2 transactions and `AppTransaction`s. It makes the checks of
/// Apple's `SignedDataVerifier` without online revocation checks (reference §4.2 and §4.3): the ES256 signature by a
/// leaf certificate that chains through Apple's intermediate to a configured root, Apple's marker extensions, then the
/// bundle id and the environment; for `AppTransaction`s also the app's Apple ID when it is configured.
public struct AppStoreVerifier: Sendable {
    public let bundleID: String
    public let environment: AppStoreEnvironment
    public let appAppleID: Int64?
    private let signature: AppStoreSignature

    /// - Parameters:
    ///   - rootCertificates: the roots signatures must chain to: Apple Root CA - G3 in production.
    ///   - appAppleID: when set, an `AppTransaction` must carry it.
    public init(rootCertificates: [Certificate], bundleID: String, environment: AppStoreEnvironment, appAppleID: Int64? = nil) {
        self.signature = AppStoreSignature(roots: rootCertificates)
        self.bundleID = bundleID
        self.environment = environment
        self.appAppleID = appAppleID
    }

    /// A signed transaction (`Transaction.jwsRepresentation`). Expiry and revocation do not refuse it: see
    /// ``AppStoreTransaction/entitledProduct(at:)``.
    /// - Parameter now: the validation time of the certificates when the transaction does not say when it was signed.
    /// - Throws: ``IdentityError``.
    public func verifyTransaction(_ jws: String, now: Date) async throws -> AppStoreTransaction {
        let payload = try await signature.verify(jws, as: TransactionPayload.self, now: now)
        try check(bundleID: payload.bundleId, environment: payload.environment)
        guard let originalTransactionID = payload.originalTransactionId, let transactionID = payload.transactionId,
            let productID = payload.productId
        else {
            throw IdentityError.malformedToken("the transaction lacks originalTransactionId, transactionId or productId")
        }
        return AppStoreTransaction(
            originalTransactionID: originalTransactionID, transactionID: transactionID, productID: productID,
            signedDate: payload.signedAt, expiresDate: payload.expiresDate.map(Date.init(millisecondsSince1970:)),
            revocationDate: payload.revocationDate.map(Date.init(millisecondsSince1970:)), ownershipType: payload.inAppOwnershipType,
            isUpgraded: payload.isUpgraded ?? false)
    }

    /// A signed `AppTransaction` (`AppTransaction.jwsRepresentation`).
    /// - Parameter now: the validation time of the certificates when the `AppTransaction` does not say when it was signed.
    /// - Throws: ``IdentityError``.
    public func verifyAppTransaction(_ jws: String, now: Date) async throws -> AppTransaction {
        let payload = try await signature.verify(jws, as: AppTransactionPayload.self, now: now)
        try check(bundleID: payload.bundleId, environment: payload.receiptType)
        if let appAppleID, payload.appAppleId != appAppleID {
            throw IdentityError.wrongAppAppleID("the AppTransaction is for another app")
        }
        guard let appTransactionID = payload.appTransactionId else {
            throw IdentityError.malformedToken("the AppTransaction lacks appTransactionId")
        }
        return AppTransaction(appTransactionID: appTransactionID, signedDate: payload.signedAt)
    }

    /// A signed App Store Server Notification V2 (the body's `signedPayload`), with its signed transaction.
    /// - Throws: ``IdentityError``.
    public func verifyNotification(_ jws: String, now: Date) async throws -> AppStoreNotification {
        let payload = try await signature.verify(jws, as: NotificationPayload.self, now: now)
        try check(bundleID: payload.data?.bundleId, environment: payload.data?.environment)
        guard let type = payload.notificationType, let uuid = payload.notificationUUID else {
            throw IdentityError.malformedToken("the notification lacks notificationType or notificationUUID")
        }
        var transaction: AppStoreTransaction?
        if let signed = payload.data?.signedTransactionInfo { transaction = try await verifyTransaction(signed, now: now) }
        return AppStoreNotification(type: type, subtype: payload.subtype, uuid: uuid, signedDate: payload.signedAt, transaction: transaction)
    }

    private func check(bundleID: String?, environment: String?) throws(IdentityError) {
        guard bundleID == self.bundleID else {
            throw .wrongBundleID("signed for another app than \(self.bundleID)")
        }
        guard environment == self.environment.appleName else {
            throw .wrongEnvironment("signed in the \(environment ?? "unknown") environment; this tenant accepts \(self.environment.appleName)")
        }
    }
}
