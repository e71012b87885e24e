/// One trip of an abuse threshold, as the abuse log keeps it: what tripped, and what was done (or, in shadow mode,
/// would have been done).
public struct AbuseEvent: Sendable, Equatable {
    /// The stream entry's id: when it happened, in milliseconds since 1970, and a sequence number.
    public let id: String
    public let tenant: String
    public let subject: String
    /// `too_many_devices`, `device_shared_by_too_many_identities`, `refund_ratio`, `safety_rejections`.
    public let signal: String
    /// `cooldown` or `block`; `shadow_cooldown` or `shadow_block` when the tenant's abuse detection only logs.
    public let action: String
    public let duration: Duration
}
