package import Foundation

/// Server-Sent Events from bytes that arrive in pieces cut anywhere (inside a line, inside a UTF-8 character): each
/// ``feed(_:)`` returns the events its bytes completed and keeps the rest for the next.
package struct ServerSentEventParser: Sendable {
    /// One event: its `id` (for `Last-Event-ID`), type (`message` when unnamed) and data.
    package struct Event: Sendable, Equatable {
        package var id: String?
        package var type: String
        package var data: String

        package init(id: String?, type: String, data: String) {
            self.id = id
            self.type = type
            self.data = data
        }
    }

    private var pending = Data()
    private var id: String?
    private var type: String?
    private var data: [String] = []

    package init() {}

    package mutating func feed(_ bytes: Data) -> [Event] {
        pending.append(bytes)
        var events: [Event] = []
        while let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
            var line = pending[pending.startIndex..<newline]
            if line.last == UInt8(ascii: "\r") { line = line.dropLast() }
            pending = Data(pending[pending.index(after: newline)...])
            if let event = take(String(decoding: line, as: UTF8.self)) { events.append(event) }
        }
        return events
    }

    /// One whole line: a field, a comment, or the blank line that ends an event.
    private mutating func take(_ line: String) -> Event? {
        if line.isEmpty {
            defer {
                id = nil
                type = nil
                data = []
            }
            guard !data.isEmpty else { return nil }
            return Event(id: id, type: type ?? "message", data: data.joined(separator: "\n"))
        }
        if line.hasPrefix(":") { return nil }
        let field: Substring
        var value: Substring
        if let colon = line.firstIndex(of: ":") {
            field = line[..<colon]
            value = line[line.index(after: colon)...]
            if value.hasPrefix(" ") { value = value.dropFirst() }
        } else {
            field = line[...]
            value = ""
        }
        switch field {
        case "id": id = String(value)
        case "event": type = String(value)
        case "data": data.append(String(value))
        default: break
        }
        return nil
    }
}
