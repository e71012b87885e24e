import RedisClient

/// One entry of a followed Redis stream: its id, and its fields as Redis sent them (names and values by turns).
public struct StreamEntry: Sendable {
    public let id: StreamID
    let fields: [RedisValue]

    /// The entries of an `XRANGE` reply, or of one stream of an `XREAD` reply, in order; an entry of another shape is
    /// left out.
    static func entries(of reply: RedisValue) -> [StreamEntry] {
        (reply.array ?? []).compactMap { entry in
            guard let parts = entry.array, parts.count == 2, let id = parts[0].string.flatMap(StreamID.init), let fields = parts[1].array
            else { return nil }
            return StreamEntry(id: id, fields: fields)
        }
    }

    /// The value of the field `name`, if the entry has it as text.
    public func field(_ name: String) -> String? {
        var index = 0
        while index + 1 < fields.count {
            if fields[index].string == name { return fields[index + 1].string }
            index += 2
        }
        return nil
    }
}
