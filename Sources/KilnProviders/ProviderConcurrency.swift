import KilnCore
public import RedisClient

/// A fleet-wide cap on calls in flight to one provider and model, held in Redis: each call takes a slot (a member
/// of a sorted set scored by when the slot lapses) and gives it back when it ends; a worker that dies mid-call loses
/// its slot when the lapse passes, so nothing leaks.
public struct ProviderConcurrency: Sendable {
    /// A slot taken; give it back with ``release(_:)``.
    public struct Slot: Sendable {
        let key: String
        let token: String
    }

    private static let acquireScript = RedisScript(
        name: "provider_slot",
        source: """
            -- KEYS[1] the slots; ARGV: lapse ms, cap, token. Returns 1 when a slot was taken. Redis's clock is the
            -- one all workers share.
            local time = redis.call('TIME')
            local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
            redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
            if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[2]) then return 0 end
            redis.call('ZADD', KEYS[1], now + tonumber(ARGV[1]), ARGV[3])
            redis.call('PEXPIRE', KEYS[1], ARGV[1])
            return 1
            """)

    private let redis: RedisPool
    private let prefix: String
    /// How long a slot lasts at most: longer than any call (the providers' total timeout). Default 10 minutes.
    private let lapse: Duration

    public init(redis: RedisPool, namespace: String, lapse: Duration = .seconds(600)) {
        self.redis = redis
        self.prefix = "{\(namespace)}:provider:"
        self.lapse = lapse
    }

    /// Takes one of the `cap` slots of `provider` and `model`; `nil` when all are taken.
    public func acquire(provider: String, model: String, cap: Int) async throws -> Slot? {
        let key = self.prefix + provider + ":" + model + ":slots"
        let token = String(UInt64.random(in: 0...UInt64.max), radix: 36) + String(UInt64.random(in: 0...UInt64.max), radix: 36)
        let lapse = String(self.lapse.milliseconds)
        let taken = try await self.redis.evaluate(Self.acquireScript, keys: [key], arguments: [lapse, String(cap), token]).int
        return taken == 1 ? Slot(key: key, token: token) : nil
    }

    public func release(_ slot: Slot) async throws {
        try await self.redis.send(["ZREM", slot.key, slot.token])
    }
}
