public import Foundation

/// A signed `AppTransaction` whose signature, bundle id and environment have been verified: proof that an Apple Account
/// has the app, whether or not it bought anything in it.
public struct AppTransaction: Sendable, Equatable {
    /// One per Apple Account (and family member) per app, the same on every device and after a re-download: the
    /// identity of a user who bought nothing, so free quotas are shared across their devices.
    public let appTransactionID: String
    /// When the App Store signed it.
    public let signedDate: Date?

    public init(appTransactionID: String, signedDate: Date?) {
        self.appTransactionID = appTransactionID
        self.signedDate = signedDate
    }
}
