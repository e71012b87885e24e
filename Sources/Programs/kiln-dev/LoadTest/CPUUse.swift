import Foundation

/// Seconds of CPU each party of a load run used over some stretch of it, and how long that stretch was.
struct CPUUse {
    /// The API node, when this command started it.
    var api: Double?
    var generators: Double
    /// Redis, when this command reaches it.
    var redis: Double?
    var elapsed: Duration = .zero

    /// Seconds used so far; `elapsed` is zero.
    static func sample(target: LoadTarget, generators: [GeneratorProcess]) async throws -> CPUUse {
        let redis = try await target.redis?.serverCPUSeconds()
        return CPUUse(api: target.apiProcess?.cpuSeconds, generators: generators.map(\.cpuSeconds).reduce(0, +), redis: redis)
    }

    /// What was used between two samples.
    static func - (after: CPUUse, before: CPUUse) -> CPUUse {
        func difference(_ after: Double?, _ before: Double?) -> Double? {
            guard let after, let before else { return nil }
            return after - before
        }
        return CPUUse(
            api: difference(after.api, before.api), generators: after.generators - before.generators,
            redis: difference(after.redis, before.redis))
    }
}
