public import Foundation

/// A verified JWT from an app's own sign-in.
public struct UserToken: Sendable, Equatable {
    /// The `sub` claim: the user's id in the app's auth (a Firebase uid, a Supabase user id).
    public let subject: String
    /// The `exp` claim.
    public let expiresAt: Date

    public init(subject: String, expiresAt: Date) {
        self.subject = subject
        self.expiresAt = expiresAt
    }
}
