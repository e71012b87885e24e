public import KilnCore
public import KilnQueue

/// The quota counters `GET /v1/quota` reads. ``QuotaBook`` is the real one.
public protocol QuotaCounters: Sendable {
    /// A quota subject's use of each class of `limits` on `day`, and how many of its jobs are unfinished.
    func usage(tenant: TenantID, subject: String, day: String, limits: [String: Int?]) async throws -> (usage: [String: QuotaUsage], unfinished: Int)
}

/// Redis's health and the queue's figures, for `/readyz` and `/metrics`. ``QueueAdmin`` is the real one.
public protocol QueueHealth: Sendable {
    /// Throws when Redis does not answer.
    func ping() async throws
    func stats() async throws -> QueueStats
}

extension QuotaBook: QuotaCounters {}
extension QueueAdmin: QueueHealth {}
