import RedisClient

extension RedisPool {
    /// Seconds of CPU the Redis server has used since it started, all its threads together (`INFO cpu`).
    func serverCPUSeconds() async throws -> Double {
        let info = try await send(["INFO", "cpu"]).string ?? ""
        return info.split(whereSeparator: \.isNewline).reduce(0) { total, line in
            let parts = line.split(separator: ":")
            guard parts.count == 2, ["used_cpu_sys", "used_cpu_user"].contains(parts[0]) else { return total }
            return total + (Double(parts[1]) ?? 0)
        }
    }

    /// Seconds of CPU each Redis server has used since it started, by its address: the one server of a plain Redis.
    func serverCPUSecondsByServer() async throws -> [String: Double] {
        ["\(configuration.host):\(configuration.port)": try await serverCPUSeconds()]
    }
}
