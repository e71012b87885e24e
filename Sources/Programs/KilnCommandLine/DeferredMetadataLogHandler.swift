public import Logging

/// A `StreamLogHandler` whose logger's metadata is kept aside until a line is written. `StreamLogHandler` formats its
/// metadata again whenever it changes, and Hummingbird gives every request's logger its id, so every request would pay
/// for formatting metadata that no line prints. The lines are the same: the metadata reaches the stream handler with
/// the event, beside the event's own, which wins where both name a key.
public struct DeferredMetadataLogHandler: LogHandler {
    private var stream: StreamLogHandler
    public var metadata: Logger.Metadata = [:]

    /// Wraps `stream`, which must have no metadata provider: the logger's metadata would otherwise outrank a provider's.
    public init(_ stream: StreamLogHandler) {
        self.stream = stream
    }

    public var logLevel: Logger.Level {
        get { stream.logLevel }
        set { stream.logLevel = newValue }
    }

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    public func log(event: LogEvent) {
        var event = event
        if !metadata.isEmpty {
            event.metadata = metadata.merging(event.metadata ?? [:]) { _, own in own }
        }
        stream.log(event: event)
    }
}
