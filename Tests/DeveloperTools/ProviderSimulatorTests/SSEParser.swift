import Foundation

/// A reference SSE parser for the tests, written from the WHATWG rules independently of the simulator's writer:
/// lines end in `\r\n`, `\n` or `\r`; a blank line dispatches; `:` lines are comments.
struct ParsedEvent: Equatable {
    var name: String?
    var data: String
}

struct SSEParser {
    /// The events of a complete body, and the comments seen; a trailing event without its blank line is dropped,
    /// as a client must drop it.
    static func parse(_ bytes: [UInt8]) -> (events: [ParsedEvent], comments: [String]) {
        let text = String(decoding: bytes, as: UTF8.self)
        var lines: [String] = []
        var current = ""
        var previousWasCR = false
        for character in text.unicodeScalars {
            if character == "\n", previousWasCR {
                previousWasCR = false
                continue
            }
            if character == "\r" || character == "\n" {
                lines.append(current)
                current = ""
                previousWasCR = character == "\r"
            } else {
                current.unicodeScalars.append(character)
                previousWasCR = false
            }
        }
        var events: [ParsedEvent] = []
        var comments: [String] = []
        var name: String?
        var data: [String] = []
        for line in lines {
            if line.isEmpty {
                if !data.isEmpty { events.append(ParsedEvent(name: name, data: data.joined(separator: "\n"))) }
                name = nil
                data = []
            } else if line.hasPrefix(":") {
                comments.append(String(line.dropFirst()).trimmingCharacters(in: [" "]))
            } else {
                let field = line.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
                var value = field.count > 1 ? String(field[1]) : ""
                if value.hasPrefix(" ") { value.removeFirst() }
                switch field[0] {
                case "event": name = value
                case "data": data.append(value)
                default: break
                }
            }
        }
        return (events, comments)
    }
}
