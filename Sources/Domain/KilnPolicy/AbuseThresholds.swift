/// When a tenant's abuse detection steps in. Thresholds that depend on the tier (devices per identity, the refund
/// cap) live on ``Tier``.
public struct AbuseThresholds: Sendable, Equatable {
    /// Log what would be done instead of doing it, to tune thresholds on real traffic before they bite.
    public let shadowMode: Bool
    /// Distinct identities one device may use in one quota day; more suggests an Apple Account being cycled.
    public let maxIdentitiesPerDevicePerDay: Int
    /// The rate of submissions of one identity.
    public let identityVelocity: VelocityLimit
    /// The rate of submissions from one IP address; weak on its own (NAT), so it is generous.
    public let ipVelocity: VelocityLimit
    /// Released (refunded) jobs of one identity in a day: farming free compute with jobs that fail on purpose.
    public let refunds: RatioThreshold
    /// Inputs and outputs of one identity rejected by the safety filter in a day.
    public let safetyRejections: RatioThreshold
    public let escalation: Escalation
}

extension AbuseThresholds {
    init(parsing field: PolicyField) throws(PolicyError) {
        let object = try field.object(allowing: [
            "shadow_mode", "max_identities_per_device_per_day", "identity_velocity", "ip_velocity", "refund_ratio",
            "safety_rejections", "escalation",
        ])
        self.init(
            shadowMode: try object.required("shadow_mode").bool(),
            maxIdentitiesPerDevicePerDay: try object.required("max_identities_per_device_per_day").wholeNumber(atLeast: 1),
            identityVelocity: try VelocityLimit(parsing: object.required("identity_velocity")),
            ipVelocity: try VelocityLimit(parsing: object.required("ip_velocity")),
            refunds: try RatioThreshold(parsing: object.required("refund_ratio")),
            safetyRejections: try RatioThreshold(parsing: object.required("safety_rejections")),
            escalation: try Escalation(parsing: object.required("escalation"))
        )
    }
}
