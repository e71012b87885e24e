import KilnCore
import RedisClient

/// Takes one of a provider model's slots of calls in flight, fleet-wide, if one is free.
struct ProviderSlotCall: RedisScriptContract {
    static let scriptName = "provider_slot"

    var slots: String
    /// How long the slot lasts at most.
    var lapse: Duration
    var cap: Int
    /// The slot's member, to give it back by.
    var token: String

    static let keys: [RedisScriptField<Self>] = [.init("slots") { $0.slots }]

    static let arguments: [RedisScriptField<Self>] = [
        .init("lapse_ms") { String($0.lapse.milliseconds) },
        .init("cap") { String($0.cap) },
        .init("token") { $0.token },
    ]

    static let replies = [RedisReplyShape(fields: ["taken"])]

    static let body = """
        -- KEYS: slots
        -- ARGV: lapse_ms, cap, token
        -- RETURNS: taken
        -- slots is a sorted set of the slots taken, scored by when each lapses (Redis's clock, the one all workers
        -- share); taken is 1 when a slot was taken, 0 when all were.
        local time = redis.call('TIME')
        local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
        redis.call('ZREMRANGEBYSCORE', slots, '-inf', now)
        if redis.call('ZCARD', slots) >= tonumber(cap) then return 0 end
        redis.call('ZADD', slots, now + tonumber(lapse_ms), token)
        redis.call('PEXPIRE', slots, lapse_ms)
        return 1
        """

    static let script = RedisScript(name: scriptName, source: luaBindings + "\n" + body)
}
