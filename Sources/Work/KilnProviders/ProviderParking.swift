import KilnCore
public import KilnKeys
public import RedisClient

/// Which providers are parked, for every worker at once: a throttled provider asked the whole fleet to wait, not
/// just the worker that heard it.
///
/// One key per provider (``KeySpace/providerParked(_:)``) that expires when the park ends; a shorter park never cuts
/// a longer one short.
public struct ProviderParking: Sendable {
    private let redis: RedisPool
    private let keys: KeySpace

    public init(redis: RedisPool, keys: KeySpace) {
        self.redis = redis
        self.keys = keys
    }

    /// Parks `provider` for `duration`, unless it is already parked for longer.
    public func park(_ provider: String, for duration: Duration) async throws {
        let milliseconds = String(max(1, duration.milliseconds))
        let key = keys.providerParked(provider)
        _ = try await self.redis.pipeline([["SET", key, "1", "NX", "PX", milliseconds], ["PEXPIRE", key, milliseconds, "GT"]])
    }

    /// How much longer `provider` stays parked; `nil` when it is not.
    public func remaining(_ provider: String) async throws -> Duration? {
        guard let milliseconds = try await self.redis.send(["PTTL", keys.providerParked(provider)]).int, milliseconds > 0 else { return nil }
        return .milliseconds(milliseconds)
    }
}

extension ProviderParking {
    /// When each of `providers` that is parked stops being parked, in milliseconds since 1970 (Redis's clock), in one
    /// round trip; providers that are not parked are left out.
    public func parkedUntil(_ providers: [String]) async throws -> [String: Int64] {
        guard !providers.isEmpty else { return [:] }
        let replies = try await self.redis.pipeline([["TIME"]] + providers.map { ["PTTL", keys.providerParked($0)] })
        let now = Self.milliseconds(replies[0])
        var parked: [String: Int64] = [:]
        for (provider, reply) in zip(providers, replies.dropFirst()) {
            if let remaining = reply.int, remaining > 0 { parked[provider] = now + remaining }
        }
        return parked
    }

    /// Redis's `TIME` reply in milliseconds since 1970.
    static func milliseconds(_ time: RedisValue) -> Int64 {
        let parts = time.array ?? []
        let seconds = parts.first?.int ?? 0
        let microseconds = parts.count > 1 ? parts[1].int ?? 0 : 0
        return seconds * 1000 + microseconds / 1000
    }
}
