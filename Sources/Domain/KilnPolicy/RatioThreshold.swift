/// A threshold on a share of an identity's jobs in one quota day (refunds, safety rejections). It needs both an
/// absolute count and a ratio, so a new user whose first job fails is not flagged for a 100 % failure rate.
public struct RatioThreshold: Sendable, Equatable {
    /// The count from which the threshold can trip.
    public let minimumCount: Int
    /// The share of the day's jobs above which it trips, in `0 ... 1`.
    public let ratio: Double

    /// Whether `count` events out of `total` jobs trip the threshold.
    public func isExceeded(count: Int, outOf total: Int) -> Bool {
        count >= minimumCount && Double(count) > ratio * Double(total)
    }
}

extension RatioThreshold {
    /// `{"min_count": 3, "ratio": 0.3}`
    init(parsing field: PolicyField) throws(PolicyError) {
        let object = try field.object(allowing: ["min_count", "ratio"])
        self.init(
            minimumCount: try object.required("min_count").wholeNumber(atLeast: 1),
            ratio: try object.required("ratio").ratio()
        )
    }
}
