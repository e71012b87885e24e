/// One entry of a job's event stream: `status`, `progress`, `delta` or `result`, with JSON data.
public struct JobEvent: Sendable, Hashable {
    /// The stream entry id (`<ms>-<seq>`), used as the SSE event id and for `Last-Event-ID`.
    public let id: String
    public let type: String
    public let data: String

    public init(id: String, type: String, data: String) {
        self.id = id
        self.type = type
        self.data = data
    }

    /// An entry of a job's stream: its two fields read in place, with no dictionary of them, since every streamed delta
    /// passes here on its way to each follower.
    init(_ entry: StreamEntry) {
        self.init(id: entry.id.description, type: entry.field("type") ?? "", data: entry.field("data") ?? "")
    }

    /// Whether this event ends the job's stream.
    public var isFinal: Bool {
        guard type == "status" else { return false }
        return ["succeeded", "failed", "cancelled", "dead"].contains { data.contains("\"state\":\"\($0)\"") }
    }
}
