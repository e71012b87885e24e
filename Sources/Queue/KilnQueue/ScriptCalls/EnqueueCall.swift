import Foundation
import KilnCore
import KilnKeys
import KilnPolicy
import RedisClient

/// `enqueue.lua`: admits and enqueues one job, or finds the one its idempotency key already made.
struct EnqueueCall: RedisScriptContract {
    static let scriptName = "enqueue"

    var keySpace: KeySpace
    var id: JobID
    var submission: Submission
    var configuration: QueueConfiguration

    private var charge: QuotaCharge? { submission.charge }

    static let keys: [RedisScriptField<Self>] = [
        .init("job") { $0.keySpace.job($0.id) },
        // Without an idempotency key the script never touches `idem`, and the job's own key stands in for it rather than
        // a digest nobody reads.
        .init("idem") { call in
            call.submission.idempotencyKey.map { call.keySpace.idempotency(call.submission.tenant, call.submission.identity, $0) }
                ?? call.keySpace.job(call.id)
        },
    ]

    static let arguments: [RedisScriptField<Self>] = [
        .init("base") { $0.keySpace.base },
        .init("id") { $0.id.rawValue },
        .init("tenant") { $0.submission.tenant.rawValue },
        .init("identity") { $0.submission.identity.rawValue },
        .init("kind") { $0.submission.kind },
        .init("class") { $0.submission.jobClass.rawValue },
        .init("rank") { String($0.submission.priority.rank) },
        .init("input") { $0.submission.input },
        .init("max_attempts") { String($0.submission.maxAttempts) },
        .init("timeout_ms") { String($0.submission.timeout.milliseconds) },
        .init("delay_ms") { String($0.submission.delay.milliseconds) },
        .init("cap") { String($0.submission.runningCap) },
        .init("weight") { String($0.submission.weight) },
        .init("body_hash") { $0.submission.bodyHash },
        .init("idem_key") { $0.submission.idempotencyKey ?? "" },
        .init("idem_ttl_s") { String($0.configuration.idempotencyTTL.components.seconds) },
        // Admission, all '' for an unmetered job.
        .init("subject") { $0.charge?.subject ?? "" },
        .init("quota_class") { $0.charge?.quotaClass.rawValue ?? "" },
        .init("cost") { $0.charge.map { String($0.cost) } ?? "" },
        .init("limit") { $0.charge.map { String($0.limit ?? -1) } ?? "" },
        .init("day") { $0.charge?.day.label ?? "" },
        .init("reset_at_ms") { $0.charge.map { String(Int64(($0.day.end.timeIntervalSince1970 * 1000).rounded())) } ?? "" },
        .init("subject_cap") { $0.charge.map { String($0.runningCap) } ?? "" },
        .init("device") { $0.charge?.device ?? "" },
        .init("cooldown_ms") { $0.charge.map { String($0.cooldown.milliseconds) } ?? "" },
        .init("refund_cap") { $0.charge.map { String($0.refundCap) } ?? "" },
        .init("tier") { $0.charge?.tier.name ?? "" },
        .init("reservation_lifetime_ms") { call in call.charge.map { _ in String(call.configuration.reservationLifetime.milliseconds) } ?? "" },
        .init("ip") { $0.charge?.ip ?? "" },
        .init("subject_emission_ms") { $0.charge.map { Self.emission($0.abuse.identityVelocity) } ?? "" },
        .init("subject_burst") { $0.charge.map { String($0.abuse.identityVelocity.burst) } ?? "" },
        .init("ip_emission_ms") { $0.charge.map { Self.emission($0.abuse.ipVelocity) } ?? "" },
        .init("ip_burst") { $0.charge.map { String($0.abuse.ipVelocity.burst) } ?? "" },
        .init("max_devices") { $0.charge.map { String($0.maxDevices) } ?? "" },
        .init("max_subjects") { $0.charge.map { String($0.abuse.maxIdentitiesPerDevicePerDay) } ?? "" },
        .init("abuse_shadow") { $0.charge.map { $0.abuse.shadowMode ? "1" : "0" } ?? "" },
        .init("abuse_cooldown_ms") { $0.charge.map { String($0.abuse.escalation.cooldown.milliseconds) } ?? "" },
        .init("abuse_block_ms") { $0.charge.map { String($0.abuse.escalation.block.milliseconds) } ?? "" },
        .init("refund_min") { $0.charge.map { String($0.abuse.refunds.minimumCount) } ?? "" },
        .init("refund_ratio") { $0.charge.map { String($0.abuse.refunds.ratio) } ?? "" },
        .init("safety_min") { $0.charge.map { String($0.abuse.safetyRejections.minimumCount) } ?? "" },
        .init("safety_ratio") { $0.charge.map { String($0.abuse.safetyRejections.ratio) } ?? "" },
    ]

    static let replies: [RedisReplyShape] = [
        RedisReplyShape(tag: "created", fields: ["id", "limit", "used", "pending"]),
        RedisReplyShape(tag: "replayed", fields: ["id"]),
        RedisReplyShape(tag: "conflict", fields: ["id"]),
        RedisReplyShape(tag: "denied", fields: ["reason", "limit", "used", "pending", "retry_after_ms", "detail"]),
    ]

    /// Milliseconds between two submissions at the limit's average rate: the GCRA's emission interval.
    private static func emission(_ limit: VelocityLimit) -> String {
        String(Double(limit.period.milliseconds) / Double(limit.count))
    }

    static func outcome(of reply: RedisValue) throws -> EnqueueOutcome {
        let reply = try read(reply)
        func usage() throws -> QuotaUsage? {
            let limit = try reply.int("limit")
            let used = try reply.int("used")
            guard used >= 0 else { return nil }
            return QuotaUsage(limit: limit < 0 ? nil : Int(limit), used: Int(used), pending: Int(try reply.int("pending")))
        }
        if reply.tag == "denied" {
            let reason = try reply.decode("reason", QuotaDenial.Reason.init(rawValue:))
            guard let usage = try usage() else { throw RedisError.server("ERR enqueue denied an unmetered job") }
            return .denied(
                QuotaDenial(
                    reason: reason, usage: usage, retryAfter: .milliseconds(try reply.int("retry_after_ms")), blockReason: try reply.text("detail")))
        }
        let id = try reply.decode("id", JobID.init(validating:))
        switch reply.tag {
        case "created": return .created(id, quota: try usage())
        case "replayed": return .replayed(id)
        default: return .conflict(id)
        }
    }
}
