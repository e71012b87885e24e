import KilnJSON

/// One server-sent event, or a comment line, before framing.
struct SSEEvent: Sendable, Equatable {
    /// The `event:` field; OpenAI and Gemini send none.
    var name: String?
    /// The `data:` payload, one line.
    var data: String?
    /// A comment (`: text`), which clients ignore; used for keep-alives.
    var comment: String?

    static func data(_ value: JSONValue, name: String? = nil) -> SSEEvent {
        SSEEvent(name: name, data: value.canonicalJSON())
    }

    /// The event framed with `lineEnding` after each line and a blank line after the event.
    func bytes(lineEnding: String) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(16 + (comment?.utf8.count ?? 0) + (name?.utf8.count ?? 0) + (data?.utf8.count ?? 0))
        for (field, value) in [(": ", comment), ("event: ", name), ("data: ", data)] {
            guard let value else { continue }
            bytes.append(contentsOf: field.utf8)
            bytes.append(contentsOf: value.utf8)
            bytes.append(contentsOf: lineEnding.utf8)
        }
        bytes.append(contentsOf: lineEnding.utf8)
        return bytes
    }
}
