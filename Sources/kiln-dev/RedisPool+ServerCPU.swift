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
        var seconds: [String: Double] = [:]
        for (address, reply) in try await sendToEveryMaster(["INFO", "cpu"]) {
            seconds[address.description] = (reply.string ?? "").split(whereSeparator: \.isNewline).reduce(0) { total, line in
                let parts = line.split(separator: ":")
                guard parts.count == 2, ["used_cpu_sys", "used_cpu_user"].contains(parts[0]) else { return total }
                return total + (Double(parts[1]) ?? 0)
            }
        }
        return seconds
    }
}
