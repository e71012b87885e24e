public import KilnCore
import KilnKeys
import RedisClient

extension QueueAdmin {
    /// Makes a job that waits out a retry's backoff due at once and wakes the claimers, as an operator's "retry now"
    /// does; false when the job was not waiting.
    public func retryNow(_ id: JobID) async throws -> Bool {
        guard let keys = shards.keys(of: id) else { return false }
        // Due at the epoch: the next claim's sweep of due jobs takes it, whatever the clocks say.
        guard try await redis.send(["ZADD", keys.delayed, "XX", "CH", "0", id.rawValue]).int == 1 else { return false }
        _ = try await redis.pipeline(JobClass.allCases.map { ["LPUSH", keys.wake($0), "1"] })
        return true
    }
}
