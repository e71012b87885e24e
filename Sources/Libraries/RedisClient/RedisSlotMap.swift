/// Which master serves each slot of a Redis Cluster, as one of its nodes told it (`CLUSTER SHARDS`, or `CLUSTER SLOTS`
/// on a Redis before 7), and the replicas, which can tell it too.
struct RedisSlotMap: Sendable, Equatable {
    /// The masters, those serving no slot too (a script flush or `INFO` goes to each).
    private(set) var masters: [RedisNodeAddress] = []
    /// The replicas that were online.
    private(set) var replicas: [RedisNodeAddress] = []
    /// Per slot, the index of its master in `masters`, or `unserved`.
    private var owners = [UInt16](repeating: unserved, count: RedisKeySlot.count)
    private static let unserved = UInt16.max

    /// The master serving `slot`, nil while none does.
    func master(ofSlot slot: Int) -> RedisNodeAddress? {
        let owner = owners[slot]
        return owner == Self.unserved ? nil : masters[Int(owner)]
    }

    /// Records that `master` serves `slot` now (a `MOVED` said so).
    mutating func assign(_ slot: Int, to master: RedisNodeAddress) {
        owners[slot] = UInt16(index(of: master))
    }

    private mutating func index(of master: RedisNodeAddress) -> Int {
        if let index = masters.firstIndex(of: master) { return index }
        masters.append(master)
        return masters.count - 1
    }

    private mutating func assign(_ slots: ClosedRange<Int>, to master: RedisNodeAddress) throws {
        guard slots.lowerBound >= 0, slots.upperBound < RedisKeySlot.count else {
            throw RedisError.protocolViolation("the cluster named slots \(slots), outside 0…\(RedisKeySlot.count - 1)")
        }
        let owner = UInt16(index(of: master))
        for slot in slots { owners[slot] = owner }
    }

    /// Reads a `CLUSTER SHARDS` reply (Redis 7): per shard, its slot ranges and its nodes with their role and health.
    /// A node that does not know its endpoint is reached at `askedHost`, the host of the node that answered.
    init(shards reply: RedisValue, askedHost: String) throws {
        for shard in reply.array ?? [] {
            let fields = Self.fields(of: shard)
            let bounds = (fields["slots"]?.array ?? []).compactMap(\.int).map(Int.init)
            var master: RedisNodeAddress?
            var masterFailed = false
            for node in fields["nodes"]?.array ?? [] {
                let fields = Self.fields(of: node)
                let endpoint = [fields["endpoint"]?.string, fields["ip"]?.string].compactMap { $0 }.first { !$0.isEmpty && $0 != "?" }
                guard let port = fields["port"]?.int, port > 0 else { continue }
                let address = RedisNodeAddress(host: endpoint ?? askedHost, port: Int(port))
                switch (fields["role"]?.string, fields["health"]?.string) {
                case ("master", let health):
                    master = address
                    masterFailed = health == "failed"
                case ("replica", "online"): replicas.append(address)
                default: break
                }
            }
            // A failed master that serves nothing is gone for good (its replica took over): no command goes to it.
            guard let master, !(bounds.isEmpty && masterFailed) else { continue }
            _ = index(of: master)
            for start in stride(from: 0, to: bounds.count - 1, by: 2) { try assign(bounds[start]...bounds[start + 1], to: master) }
        }
    }

    /// Reads a `CLUSTER SLOTS` reply: per slot range, its master then its replicas, each as `[host, port, id, …]`.
    init(slots reply: RedisValue, askedHost: String) throws {
        for range in reply.array ?? [] {
            guard let entry = range.array, entry.count >= 3, let first = entry[0].int, let last = entry[1].int, first <= last else {
                throw RedisError.protocolViolation("CLUSTER SLOTS answered with a malformed range")
            }
            let nodes = entry[2...].compactMap { node -> RedisNodeAddress? in
                guard let fields = node.array, fields.count >= 2, let port = fields[1].int, port > 0 else { return nil }
                let host = fields[0].string.flatMap { $0.isEmpty || $0 == "?" ? nil : $0 } ?? askedHost
                return RedisNodeAddress(host: host, port: Int(port))
            }
            guard let master = nodes.first else { continue }
            try assign(Int(first)...Int(last), to: master)
            replicas.append(contentsOf: nodes.dropFirst().filter { !replicas.contains($0) })
        }
    }

    /// A RESP2 map: an array of names and values, one after the other.
    private static func fields(of value: RedisValue) -> [String: RedisValue] {
        let items = value.array ?? []
        var fields: [String: RedisValue] = [:]
        for index in stride(from: 0, to: items.count - 1, by: 2) {
            if let name = items[index].string { fields[name] = items[index + 1] }
        }
        return fields
    }
}
