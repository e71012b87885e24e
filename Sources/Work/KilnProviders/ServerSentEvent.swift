/// One event of a `text/event-stream` body.
public struct ServerSentEvent: Sendable, Equatable {
    /// The `event:` field; `nil` when the event named none (the format's default type, "message").
    public var event: String?
    /// The `data:` lines, joined with line feeds.
    public var data: String
    /// The `id:` field, when the event carried one.
    public var id: String?

    /// Creates an event.
    public init(event: String? = nil, data: String, id: String? = nil) {
        self.event = event
        self.data = data
        self.id = id
    }
}
