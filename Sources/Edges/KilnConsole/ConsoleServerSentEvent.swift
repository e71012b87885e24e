import HTTPTypes
import Hummingbird
import NIOCore

/// The console's live parts' event streams (`text/event-stream`, never cached): each event `event: <name>`, then its
/// data a line at a time.
enum ConsoleServerSentEvent {
    /// The stream's response: `events` sends its events, and the stream ends when it returns.
    static func response(_ events: @escaping @Sendable (inout any ResponseBodyWriter) async throws -> Void) -> Response {
        var headers = HTTPFields()
        headers[.contentType] = "text/event-stream"
        headers[.cacheControl] = "no-store"
        return Response(
            status: .ok, headers: headers,
            body: ResponseBody { writer in
                try await events(&writer)
                try await writer.finish(nil)
            })
    }

    /// Writes the event `name` with `data`.
    static func send(_ name: String, _ data: String, to writer: inout any ResponseBodyWriter) async throws {
        let lines = data.split(separator: "\n", omittingEmptySubsequences: false).map { "data: \($0)" }.joined(separator: "\n")
        try await writer.write(ByteBuffer(string: "event: \(name)\n\(lines)\n\n"))
    }
}
