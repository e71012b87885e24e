public import KilnKeys
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

    private let redis: RedisPool
    private let keys: KeySpace
    /// How long a slot lasts at most: longer than any call (the providers' total timeout). Default 10 minutes.
    private let lapse: Duration

    public init(redis: RedisPool, keys: KeySpace, lapse: Duration = .seconds(600)) {
        self.redis = redis
        self.keys = keys
        self.lapse = lapse
    }

    /// Takes one of the `cap` slots of `provider` and `model`; `nil` when all are taken.
    public func acquire(provider: String, model: String, cap: Int) async throws -> Slot? {
        let key = keys.providerSlots(provider, model: model)
        let token = String(UInt64.random(in: 0...UInt64.max), radix: 36) + String(UInt64.random(in: 0...UInt64.max), radix: 36)
        let call = ProviderSlotCall(slots: key, lapse: lapse, cap: cap, token: token)
        let taken = try ProviderSlotCall.read(try await redis.evaluate(call.call(ProviderSlotCall.script))).int("taken")
        return taken == 1 ? Slot(key: key, token: token) : nil
    }

    public func release(_ slot: Slot) async throws {
        try await self.redis.send(["ZREM", slot.key, slot.token])
    }
}

extension ProviderConcurrency {
    /// How many slots of each provider and model are taken now, fleet-wide (slots that lapsed are not counted).
    public func inUse(_ models: [(provider: String, model: String)]) async throws -> [Int] {
        guard !models.isEmpty else { return [] }
        let now = ProviderParking.milliseconds(try await self.redis.send(["TIME"]))
        let replies = try await self.redis.pipeline(
            models.map { ["ZCOUNT", keys.providerSlots($0.provider, model: $0.model), "(\(now)", "+inf"] })
        return replies.map { Int($0.int ?? 0) }
    }
}
