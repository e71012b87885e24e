/// A rate with a burst, enforced as a GCRA (the algorithm of redis-cell): `count` requests per `period` on
/// average, and up to `burst` more at once after a quiet spell.
public struct VelocityLimit: Sendable, Equatable {
    /// Requests per period, at least 1.
    public let count: Int
    public let period: Duration
    /// Requests allowed beyond the steady rate; redis-cell reports the total limit as `burst + 1`.
    public let burst: Int
}

extension VelocityLimit {
    /// `{"count": 10, "period_seconds": 60, "burst": 5}`
    init(parsing field: PolicyField) throws(PolicyError) {
        let object = try field.object(allowing: ["count", "period_seconds", "burst"])
        self.init(
            count: try object.required("count").wholeNumber(atLeast: 1),
            period: try object.required("period_seconds").seconds(atLeast: 1),
            burst: try object.required("burst").wholeNumber(atLeast: 0)
        )
    }
}
