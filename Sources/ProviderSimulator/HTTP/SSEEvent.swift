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
        var text = ""
        if let comment { text += ": " + comment + lineEnding }
        if let name { text += "event: " + name + lineEnding }
        if let data { text += "data: " + data + lineEnding }
        return Array((text + lineEnding).utf8)
    }
}
