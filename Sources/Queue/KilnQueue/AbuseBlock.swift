public import KilnCore

/// A quota subject blocked by abuse detection, for the reason of the signal that tripped.
public struct AbuseBlock: Sendable, Equatable {
    public let tenant: TenantID
    public let subject: String
    public let reason: String
    /// How long the block still lasts.
    public let remaining: Duration
}
