public import KilnCore
import KilnKeys
import RedisClient

extension QuotaBook {
    /// The blocks in force on every shard, soonest to end first.
    public func abuseBlocks() async throws -> [AbuseBlock] {
        var blocks: [AbuseBlock] = []
        for keys in shards.all { blocks += try await abuseBlocks(on: keys) }
        return blocks.sorted { $0.remaining < $1.remaining }
    }

    private func abuseBlocks(on keys: KeySpace) async throws -> [AbuseBlock] {
        let now = try await redis.send(["TIME"]).array?.first?.int ?? 0
        // Blocks that ended leave the index here; the keys themselves expire on their own.
        _ = try await redis.send(["ZREMRANGEBYSCORE", keys.blocks, "-inf", String(now * 1000)])
        let entries = try await redis.send(["ZRANGE", keys.blocks, "0", "-1"]).array?.compactMap(\.string) ?? []
        var blocks: [AbuseBlock] = []
        for entry in entries {
            guard let separator = entry.firstIndex(of: ":"), let tenant = TenantID(validating: String(entry[..<separator])) else { continue }
            let subject = String(entry[entry.index(after: separator)...])
            let replies = try await redis.pipeline([["GET", keys.block(tenant, subject)], ["PTTL", keys.block(tenant, subject)]])
            guard let reason = replies[0].string, let remaining = replies[1].int, remaining > 0 else { continue }
            blocks.append(AbuseBlock(tenant: tenant, subject: subject, reason: reason, remaining: .milliseconds(remaining)))
        }
        return blocks
    }

    /// Lifts a subject's block; false when it had none.
    @discardableResult
    public func liftBlock(tenant: TenantID, subject: String) async throws -> Bool {
        let keys = shards.keys(tenant: tenant, owner: subject)
        let replies = try await redis.pipeline([["DEL", keys.block(tenant, subject)], ["ZREM", keys.blocks, "\(tenant):\(subject)"]])
        return replies[0].int == 1
    }

    /// The latest trips of abuse thresholds on every shard, newest first.
    public func abuseLog(limit: Int = 100) async throws -> [AbuseEvent] {
        var events: [AbuseEvent] = []
        for keys in shards.all {
            let entries = try await redis.send(["XREVRANGE", keys.abuseLog, "+", "-", "COUNT", String(limit)]).streamEntries
            events += entries.compactMap(Self.abuseEvent)
        }
        // Stream ids are `<milliseconds>-<sequence>`: newest first across the shards' logs.
        return Array(events.sorted { Self.streamOrder($1.id, $0.id) }.prefix(limit))
    }

    /// An entry of the abuse log; nil when a field is missing.
    private static func abuseEvent(_ entry: (id: String, fields: [String: String])) -> AbuseEvent? {
        let (id, fields) = entry
        guard let tenant = fields["tenant"], let subject = fields["subject"], let signal = fields["signal"], let action = fields["action"],
            let duration = fields["duration_ms"].flatMap(Int64.init)
        else { return nil }
        return AbuseEvent(id: id, tenant: tenant, subject: subject, signal: signal, action: action, duration: .milliseconds(duration))
    }

    /// Whether stream id `first` comes before `second`.
    static func streamOrder(_ first: String, _ second: String) -> Bool {
        func parts(_ id: String) -> (Int64, Int64) {
            let split = id.split(separator: "-")
            return (split.first.flatMap { Int64($0) } ?? 0, split.count > 1 ? Int64(split[1]) ?? 0 : 0)
        }
        return parts(first) < parts(second)
    }
}
