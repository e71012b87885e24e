/// Turns the bytes of a `text/event-stream` body into events, as they arrive, by the WHATWG rules the providers'
/// own SDKs follow: lines end in CR LF, LF or CR; a blank line dispatches; `:` starts a comment; one space after
/// the colon is dropped; `data` lines accumulate.
///
/// Bytes may be split anywhere, inside a line ending or a UTF-8 sequence: a line is decoded only once it is whole.
public struct ServerSentEventParser: Sendable {
    private var line: [UInt8] = []
    /// The previous chunk ended in CR, so an LF opening the next one belongs to the same line ending.
    private var skipNextLineFeed = false
    private var isFirstLine = true
    private var eventType: String?
    private var data: String?
    private var lastEventID: String?

    /// Creates a parser at the start of a stream.
    public init() {}

    /// Parses the next bytes of the stream and returns the events they complete, in order.
    public mutating func parse(_ bytes: some Sequence<UInt8>) -> [ServerSentEvent] {
        var events: [ServerSentEvent] = []
        for byte in bytes {
            if self.skipNextLineFeed {
                self.skipNextLineFeed = false
                if byte == UInt8(ascii: "\n") { continue }
            }
            switch byte {
            case UInt8(ascii: "\r"):
                self.skipNextLineFeed = true
                self.endLine(into: &events)
            case UInt8(ascii: "\n"):
                self.endLine(into: &events)
            default:
                self.line.append(byte)
            }
        }
        return events
    }

    /// Whether bytes of an event that has not been dispatched are waiting: at the end of the stream they are
    /// discarded, as the format says, and a caller may count that as a truncated stream.
    public var hasPartialEvent: Bool {
        !self.line.isEmpty || self.data != nil || self.eventType != nil
    }

    private mutating func endLine(into events: inout [ServerSentEvent]) {
        var line = self.line[...]
        self.line.removeAll(keepingCapacity: true)
        if self.isFirstLine {
            self.isFirstLine = false
            if line.starts(with: [0xEF, 0xBB, 0xBF]) { line = line.dropFirst(3) }
        }
        if line.isEmpty {
            self.dispatch(into: &events)
            return
        }
        if line.first == UInt8(ascii: ":") { return }
        let colon = line.firstIndex(of: UInt8(ascii: ":"))
        let name = String(decoding: line[..<(colon ?? line.endIndex)], as: UTF8.self)
        var value = colon.map { line[($0 + 1)...] } ?? line[line.endIndex...]
        if value.first == UInt8(ascii: " ") { value = value.dropFirst() }
        let text = String(decoding: value, as: UTF8.self)
        switch name {
        case "event": self.eventType = text
        case "data": self.data = self.data.map { $0 + "\n" + text } ?? text
        case "id" where !text.utf8.contains(0): self.lastEventID = text
        default: break  // `retry` and unknown fields do not concern a client that never reconnects by itself.
        }
    }

    private mutating func dispatch(into events: inout [ServerSentEvent]) {
        defer {
            self.eventType = nil
            self.data = nil
        }
        guard let data = self.data else { return }
        events.append(ServerSentEvent(event: self.eventType, data: data, id: self.lastEventID))
    }
}
