extension RedisValue {
    /// A flat array of names and values (an `HGETALL` reply, a stream entry's fields) as a dictionary; a pair whose
    /// name or value is not text is left out, and any other reply is empty.
    public var fields: [String: String] {
        let values = array ?? []
        var fields: [String: String] = [:]
        for index in stride(from: 0, to: values.count - 1, by: 2) {
            if let name = values[index].string, let value = values[index + 1].string { fields[name] = value }
        }
        return fields
    }

    /// The entries of an `XRANGE` or `XREVRANGE` reply, or of one stream of an `XREAD` reply, in the order Redis sent
    /// them: each one's id and ``fields``. An entry of another shape is left out.
    public var streamEntries: [(id: String, fields: [String: String])] {
        (array ?? []).compactMap { entry in
            guard let parts = entry.array, parts.count == 2, let id = parts[0].string, parts[1].array != nil else { return nil }
            return (id, parts[1].fields)
        }
    }
}
