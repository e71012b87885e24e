import RedisClient

extension RedisPool {
    /// Seconds of CPU the Redis servers have used since they started, all their threads together (`INFO cpu`), added
    /// up over every master of a cluster.
    func serverCPUSeconds() async throws -> Double {
        try await serverCPUSecondsByServer().values.reduce(0, +)
    }

    /// Seconds of CPU each Redis server has used since it started, by its address: the one server of a plain Redis,
    /// every master of a cluster.
    func serverCPUSecondsByServer() async throws -> [String: Double] {
        try await infoFieldsByServer("cpu", adding: ["used_cpu_sys", "used_cpu_user"])
    }

    /// What the servers' persistence did since they started, added up over every master: AOF rewrites finished, and the
    /// seconds of CPU of the children that ran them (`used_cpu_*_children`, counted as each child exits).
    func persistenceWork() async throws -> (rewrites: Double, childCPUSeconds: Double) {
        let rewrites = try await infoFieldsByServer("persistence", adding: ["aof_rewrites"]).values.reduce(0, +)
        let children = try await infoFieldsByServer("cpu", adding: ["used_cpu_sys_children", "used_cpu_user_children"])
        return (rewrites, children.values.reduce(0, +))
    }

    /// The sum of these numeric `INFO` fields of one section, by server address.
    private func infoFieldsByServer(_ section: String, adding fields: Set<Substring>) async throws -> [String: Double] {
        var totals: [String: Double] = [:]
        for (address, reply) in try await sendToEveryMaster(["INFO", section]) {
            totals[address.description] = (reply.string ?? "").split(whereSeparator: \.isNewline).reduce(0) { total, line in
                let parts = line.split(separator: ":")
                guard parts.count == 2, fields.contains(parts[0]) else { return total }
                return total + (Double(parts[1]) ?? 0)
            }
        }
        return totals
    }
}
