public import Foundation

/// What an identity stands to get at admission: whose quota pool it draws on, and the tier it has paid for.
public struct Standing: Sendable, Equatable {
    /// The quota subject: the identity itself, or `pair:<id>` for partners who share one pool.
    public var subject: String
    /// The tier of its best active entitlement (its own or its partner's); nil when it has none.
    public var tier: String?
    /// When that entitlement ends; nil when it does not (or there is none).
    public var expiresAt: Date?

    public init(subject: String, tier: String? = nil, expiresAt: Date? = nil) {
        self.subject = subject
        self.tier = tier
        self.expiresAt = expiresAt
    }

    /// The tier, if its entitlement is still running at `now`.
    public func activeTier(at now: Date) -> String? {
        guard let tier else { return nil }
        if let expiresAt, expiresAt <= now { return nil }
        return tier
    }
}
