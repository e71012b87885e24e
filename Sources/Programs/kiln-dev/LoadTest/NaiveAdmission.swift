import KilnPolicy
import LoadTesting
import RedisClient

/// The negative control: the generator decides each request itself against Redis as a hand-rolled limiter would —
/// read the counts (GET), then add to them (INCRBY) in a second round trip. Nothing stops other requests of the same
/// identity from reading the same counts in between, so under concurrency it admits more than the limits allow; the
/// audit must see that, or it could not see a race in the real admission either.
struct NaiveAdmission: AdmissionDecider {
    private let redis: RedisPool
    private let base: String
    private let policy: TenantPolicy

    /// Keys go under the namespace's hash-tagged prefix, so deleting the namespace deletes them.
    init(redis configuration: RedisConfiguration, namespace: String, policy: TenantPolicy) {
        self.redis = RedisPool(configuration: configuration)
        self.base = "{\(namespace)}:naive"
        self.policy = policy
    }

    func warmUp(connections: Int) async throws {
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<connections { group.addTask { _ = try await redis.send(["PING"]) } }
            try await group.waitForAll()
        }
    }

    func decide(_ request: PlannedRequest, answer: @escaping @Sendable (AdmissionAnswer) -> Void) {
        Task { answer(await decision(request)) }
    }

    private func decision(_ request: PlannedRequest) async -> AdmissionAnswer {
        guard let tier = policy.tiers[request.tier] else { return AdmissionAnswer(status: 400, reason: "unknown_tier") }
        let quotaClass = request.quotaClass.rawValue
        let units = "\(base):units:\(request.identity):\(quotaClass)"
        let jobs = "\(base):jobs:\(request.identity)"
        let cooldown = "\(base):cooldown:\(request.device):\(quotaClass)"
        do {
            // The checks of the admission script, in its order, on counts that may be stale by the time of the write.
            let counts = try await redis.pipeline([["GET", units], ["GET", jobs], ["PTTL", cooldown]])
            let used = Int(counts[0].int ?? 0)
            if case .units(let limit) = tier.limit(for: request.quotaClass), used + request.cost > limit {
                return AdmissionAnswer(status: 429, reason: "daily_quota_exhausted", remaining: max(0, limit - used))
            }
            if Int(counts[1].int ?? 0) >= tier.runningJobCap { return AdmissionAnswer(status: 429, reason: "concurrency_limit") }
            if (counts[2].int ?? 0) > 0 { return AdmissionAnswer(status: 429, reason: "device_cooldown") }
            var writes = [["INCRBY", units, String(request.cost)], ["INCR", jobs]]
            let window = tier.cooldown(for: request.quotaClass)
            if window > .zero {
                let milliseconds = window.components.seconds * 1000 + window.components.attoseconds / 1_000_000_000_000_000
                writes.append(["SET", cooldown, "1", "PX", String(max(1, milliseconds))])
            }
            _ = try await redis.pipeline(writes)
            return AdmissionAnswer(status: 202)
        } catch {
            return AdmissionAnswer(status: 0, reason: "redis: \(error)")
        }
    }

    func close() async throws {
        try await redis.close()
    }
}
