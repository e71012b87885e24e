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
