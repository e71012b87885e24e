import KilnCore
public import RedisClient

/// Which providers are parked, for every worker at once: a throttled provider asked the whole fleet to wait, not
/// just the worker that heard it.
///
/// One key per provider, `{namespace}:provider:<name>:parked`, that expires when the park ends; a shorter park
/// never cuts a longer one short.
public struct ProviderParking: Sendable {
    private let redis: RedisPool
    private let prefix: String

    /// - Parameter namespace: the Redis key prefix Kiln's other keys use.
    public init(redis: RedisPool, namespace: String) {
        self.redis = redis
        self.prefix = "{\(namespace)}:provider:"
    }

    /// Parks `provider` for `duration`, unless it is already parked for longer.
    public func park(_ provider: String, for duration: Duration) async throws {
        let milliseconds = String(max(1, duration.milliseconds))
        let key = self.key(provider)
        _ = try await self.redis.pipeline([["SET", key, "1", "NX", "PX", milliseconds], ["PEXPIRE", key, milliseconds, "GT"]])
    }

    /// How much longer `provider` stays parked; `nil` when it is not.
    public func remaining(_ provider: String) async throws -> Duration? {
        guard let milliseconds = try await self.redis.send(["PTTL", self.key(provider)]).int, milliseconds > 0 else { return nil }
        return .milliseconds(milliseconds)
    }

    private func key(_ provider: String) -> String {
        self.prefix + provider + ":parked"
    }
}
