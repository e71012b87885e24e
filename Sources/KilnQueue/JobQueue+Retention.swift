public import Foundation
public import KilnCore
import KilnKeys
import RedisClient

extension JobQueue {
    /// Dead-lettered jobs that ended before `cutoff`, oldest first, from `offset` on. Their hashes keep inputs in
    /// Redis until replayed or purged, so the retention purge reads them here.
    public func deadLetters(endedBefore cutoff: Date, offset: Int, limit: Int) async throws -> [JobSnapshot] {
        let score = String(Int64((cutoff.timeIntervalSince1970 * 1000).rounded(.down)))
        let ids = try await redis.send(["ZRANGE", keys.dead, "-inf", "(" + score, "BYSCORE", "LIMIT", String(offset), String(limit)])
        return try await snapshots((ids.array ?? []).compactMap { $0.string.flatMap(JobID.init(validating:)) }).compactMap { $0 }
    }
}
