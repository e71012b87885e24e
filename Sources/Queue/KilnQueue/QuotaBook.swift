public import KilnCore
import KilnKeys
import RedisClient

/// A namespace's quota counters, each subject's on its shard (``QueueShards``): what admission reserved and committed per subject and day, read for `GET /v1/quota`
/// and checked against the ledger. Abuse blocks and the abuse log: ``QuotaBook+Abuse.swift``.
public struct QuotaBook: NamespaceRole {
    let namespace: RedisNamespace

    public init(_ namespace: RedisNamespace) {
        self.namespace = namespace
    }

    /// A quota subject's use of each class on `day`, and how many of its jobs hold a reservation (are unfinished).
    /// - Parameter limits: each class to read, with its limit (nil: unlimited).
    public func usage(
        tenant: TenantID, subject: String, day: String, limits: [String: Int?]
    ) async throws -> (usage: [String: QuotaUsage], unfinished: Int) {
        let keys = shards.keys(tenant: tenant, owner: subject)
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

    /// A quota subject's counters of one day, as Redis holds them: `used:<class>`, `rsv:<class>`, `refunded`.
    public func counters(tenant: TenantID, subject: String, day: String) async throws -> [String: Int] {
        let key = shards.keys(tenant: tenant, owner: subject).quota(tenant, subject, day)
        return try await redis.send(["HGETALL", key]).fields.compactMapValues { Int($0) }
    }

    /// Raises a subject's counters of one day to at least `counters`, leaving higher ones alone; a rebuilt day's key
    /// expires after `ttl`. - Returns: how many counters were raised.
    @discardableResult
    public func raiseCounters(tenant: TenantID, subject: String, day: String, to counters: [String: Int], ttl: Duration) async throws -> Int {
        guard !counters.isEmpty else { return 0 }
        let call = RaiseCall(
            keySpace: shards.keys(tenant: tenant, owner: subject), tenant: tenant, subject: subject, day: day,
            items: counters.sorted { $0.key < $1.key }.map { ($0.key, $0.value) },
            ttl: ttl)
        return Int(try RaiseCall.read(try await redis.evaluate(call.call(scripts.raise))).int("raised"))
    }
}
