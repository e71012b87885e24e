public import KilnCore
import RedisClient

extension JobQueue {
    /// A quota subject's use of each class on `day`, and how many of its jobs hold a reservation (are unfinished).
    /// - Parameter limits: each class to read, with its limit (nil: unlimited).
    public func quotaUsage(
        tenant: TenantID, subject: String, day: String, limits: [String: Int?]
    ) async throws -> (usage: [String: QuotaUsage], unfinished: Int) {
        let classes = limits.keys.sorted()
        let fields = classes.flatMap { ["used:\($0)", "rsv:\($0)"] }
        let replies = try await redis.pipeline([
            ["HMGET", keys.quota(tenant, subject, day)] + fields, ["HLEN", keys.reservations(tenant, subject)],
        ])
        let values = replies[0].array ?? []
        var usage: [String: QuotaUsage] = [:]
        for (index, quotaClass) in classes.enumerated() {
            func count(_ offset: Int) -> Int {
                values.count > offset ? values[offset].string.flatMap(Int.init) ?? 0 : 0
            }
            usage[quotaClass] = QuotaUsage(limit: limits[quotaClass] ?? nil, used: count(2 * index), pending: count(2 * index + 1))
        }
        return (usage, Int(replies[1].int ?? 0))
    }
}
