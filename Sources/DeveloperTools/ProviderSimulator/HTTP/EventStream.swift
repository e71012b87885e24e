/// A provider's whole SSE stream for one answer, and the events its faults substitute.
struct EventStream: Sendable {
    /// The events of a normal answer, in order.
    var events: [SSEEvent]
    /// How many trailing events are the stream's terminal marker (`message_stop`, `[DONE]`, the `finishReason`
    /// chunk); `no_final_event` drops them.
    var terminalEvents: Int
    /// What the provider sends to keep an idle stream open: a `ping` event or a `: keep-alive` comment.
    var keepAlive: SSEEvent
    /// The provider's in-band error once the status is already 200.
    var inBandError: SSEEvent
    /// One `data:` line that is not valid JSON.
    var malformed: SSEEvent
}
