public import KilnCore
import KilnKeys
import RedisClient

extension QuotaBook {
    /// One unfinished job's hold on a quota, as the enqueue script wrote it.
    public struct Reservation: Sendable, Hashable {
        public let job: String
        public let day: String
        public let quotaClass: String
        public let units: Int
        /// When the hold lapses if the job never settles, in Redis's milliseconds.
        public let expiresAtMilliseconds: Int64
    }

    /// What admission holds about a quota subject beside its counters: the devices it used on `day` (with the blocks
    /// of those blocked), its unfinished jobs' reservations, and its block, if any — for an operator looking one
    /// identity up.
    public func inspect(
        tenant: TenantID, subject: String, day: String
    ) async throws -> (
        devices: [String], deviceBlocks: [AbuseBlock], reservations: [Reservation], block: AbuseBlock?
    ) {
        let keys = shards.keys(tenant: tenant, owner: subject)
        let replies = try await redis.pipeline([
            ["SMEMBERS", keys.devices(tenant, subject, day)], ["HGETALL", keys.reservations(tenant, subject)],
            ["GET", keys.block(tenant, subject)], ["PTTL", keys.block(tenant, subject)],
        ])
        let devices = (replies[0].array ?? []).compactMap(\.string).sorted()
        let fields = (replies[1].array ?? []).compactMap(\.string)
        let reservations = stride(from: 0, to: fields.count - 1, by: 2).compactMap { index -> Reservation? in
            // `day|class|units|expires_ms`
            let parts = fields[index + 1].split(separator: "|").map(String.init)
            guard parts.count == 4, let units = Int(parts[2]), let expires = Int64(parts[3]) else { return nil }
            return Reservation(job: fields[index], day: parts[0], quotaClass: parts[1], units: units, expiresAtMilliseconds: expires)
        }
        let block = replies[2].string.flatMap { reason in
            replies[3].int.flatMap {
                $0 > 0 ? AbuseBlock(tenant: tenant, target: .identity(subject), reason: reason, remaining: .milliseconds($0), byOperator: false) : nil
            }
        }
        let deviceReplies = try await redis.pipeline(
            devices.flatMap { [["GET", keys.deviceBlock(tenant, $0)], ["PTTL", keys.deviceBlock(tenant, $0)]] })
        let deviceBlocks = devices.enumerated().compactMap { index, device -> AbuseBlock? in
            guard let reason = deviceReplies[2 * index].string, let remaining = deviceReplies[2 * index + 1].int, remaining > 0 else { return nil }
            return AbuseBlock(tenant: tenant, target: .device(device), reason: reason, remaining: .milliseconds(remaining), byOperator: true)
        }
        return (devices, deviceBlocks, reservations, block)
    }
}
