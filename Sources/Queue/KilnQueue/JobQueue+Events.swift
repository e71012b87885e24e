public import KilnCore
import KilnKeys
import RedisClient

extension JobQueue {
    /// Events after `lastEventID` (from the start when nil), oldest first.
    public func events(of id: JobID, after lastEventID: String?, limit: Int = 500) async throws -> [JobEvent] {
        guard let keys = shards.keys(of: id) else { return [] }
        let start = lastEventID.map { "(" + $0 } ?? "-"
        let reply = try await redis.send(["XRANGE", keys.events(id), start, "+", "COUNT", String(limit)])
        return Self.parseEntries(reply)
    }

    /// Waits up to `timeout` for events after `lastEventID` (which must be given: "0-0" for the start), on a
    /// connection of its own; empty when none came.
    public func waitForEvents(of id: JobID, after lastEventID: String, timeout: Duration) async throws -> [JobEvent] {
        guard let key = shards.keys(of: id)?.events(id) else { return [] }
        let reply = try await redis.sendBlocking(
            ["XREAD", "COUNT", "500", "BLOCK", String(max(timeout.milliseconds, 1)), "STREAMS", key, lastEventID], blockFor: timeout)
        // [[key, [entries]]]
        guard let streams = reply.array, let first = streams.first?.array, first.count == 2 else { return [] }
        return Self.parseEntries(first[1])
    }

    /// Reads the two fields an event has straight from the reply rather than through `RedisValue.streamEntries`: every
    /// streamed delta passes here on its way to each follower, and a dictionary an event is work that path need not do.
    private static func parseEntries(_ reply: RedisValue) -> [JobEvent] {
        (reply.array ?? []).compactMap { entry in
            guard let parts = entry.array, parts.count == 2, let id = parts[0].string, let fields = parts[1].array else { return nil }
            var type = ""
            var data = ""
            for index in stride(from: 0, to: fields.count - 1, by: 2) {
                switch fields[index].string {
                case "type": type = fields[index + 1].string ?? ""
                case "data": data = fields[index + 1].string ?? ""
                default: break
                }
            }
            return JobEvent(id: id, type: type, data: data)
        }
    }
}
