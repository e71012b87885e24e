public import KilnCore
import KilnKeys
import RedisClient

extension QuotaBook {
    /// The blocks in force, abuse detection's on every shard and operators', soonest to end first.
    public func abuseBlocks() async throws -> [AbuseBlock] {
        var blocks: [AbuseBlock] = []
        for keys in shards.all { blocks += try await abuseBlocks(on: keys) }
        blocks += try await operatorBlocks()
        return blocks.sorted { $0.remaining < $1.remaining }
    }

    /// Blocks `target` of `tenant` from submitting for `duration`, for `reason`: admission refuses its next
    /// submission with `temporarily_blocked` (docs/admission.md). Written on every shard, since any shard's admission
    /// may meet the target, and indexed on the control shard.
    public func block(_ target: BlockTarget, tenant: TenantID, reason: String, for duration: Duration) async throws {
        let milliseconds = String(max(duration.milliseconds, 1))
        for keys in shards.all {
            _ = try await redis.send(["SET", Self.key(of: target, tenant: tenant, on: keys), reason, "PX", milliseconds])
        }
        let now = try await redis.send(["TIME"]).array?.first?.int ?? 0
        let ends = String(now * 1000 + max(duration.milliseconds, 1))
        _ = try await redis.send(["ZADD", shards.control.operatorBlocks, ends, Self.indexEntry(target, tenant: tenant)])
    }

    /// Lifts a block of `target`, an operator's or abuse detection's; false when it had none.
    @discardableResult
    public func lift(_ target: BlockTarget, tenant: TenantID) async throws -> Bool {
        var lifted = false
        for keys in shards.all {
            var commands = [["DEL", Self.key(of: target, tenant: tenant, on: keys)]]
            if case .identity(let subject) = target { commands.append(["ZREM", keys.blocks, "\(tenant):\(subject)"]) }
            lifted = try await redis.pipeline(commands)[0].int == 1 || lifted
        }
        _ = try await redis.send(["ZREM", shards.control.operatorBlocks, Self.indexEntry(target, tenant: tenant)])
        return lifted
    }

    /// The key of `target`'s block on a shard.
    private static func key(of target: BlockTarget, tenant: TenantID, on keys: KeySpace) -> String {
        switch target {
        case .identity(let subject): keys.block(tenant, subject)
        case .device(let device): keys.deviceBlock(tenant, device)
        case .address(let address): keys.addressBlock(tenant, address)
        }
    }

    /// `<kind>|<tenant>|<value>`: a tenant's id has no `|`, so the value is all that follows the second.
    private static func indexEntry(_ target: BlockTarget, tenant: TenantID) -> String {
        "\(target.kind)|\(tenant)|\(target.value)"
    }

    /// Operators' blocks in force, from the control shard's index.
    private func operatorBlocks() async throws -> [AbuseBlock] {
        let keys = shards.control
        let now = try await redis.send(["TIME"]).array?.first?.int ?? 0
        _ = try await redis.send(["ZREMRANGEBYSCORE", keys.operatorBlocks, "-inf", String(now * 1000)])
        let entries = try await redis.send(["ZRANGE", keys.operatorBlocks, "0", "-1"]).array?.compactMap(\.string) ?? []
        let targets = entries.compactMap { entry -> (TenantID, BlockTarget)? in
            let parts = entry.split(separator: "|", maxSplits: 2, omittingEmptySubsequences: false)
            guard parts.count == 3, let tenant = TenantID(validating: String(parts[1])),
                let target = BlockTarget(kind: String(parts[0]), value: String(parts[2]))
            else { return nil }
            return (tenant, target)
        }
        let replies = try await redis.pipeline(
            targets.flatMap { tenant, target in
                let key = Self.key(of: target, tenant: tenant, on: keys)
                return [["GET", key], ["PTTL", key]]
            })
        return targets.enumerated().compactMap { index, entry in
            guard let reason = replies[2 * index].string, let remaining = replies[2 * index + 1].int, remaining > 0 else { return nil }
            return AbuseBlock(tenant: entry.0, target: entry.1, reason: reason, remaining: .milliseconds(remaining), byOperator: true)
        }
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
            blocks.append(
                AbuseBlock(tenant: tenant, target: .identity(subject), reason: reason, remaining: .milliseconds(remaining), byOperator: false))
        }
        return blocks
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
