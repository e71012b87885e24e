import Foundation
import Logging
import MCP

/// The SDK's `Transport` for one POSTed JSON-RPC message: it hands the message to a fresh `Server` and passes on what
/// the server sends back — notifications about the request (its progress), then its response — in order, on
/// ``outgoing``. Kiln runs a `Server` per request, so that any API node can serve any request of a session: what a
/// session keeps lives in Redis, not in a server's memory.
actor MCPExchange: Transport {
    /// A message the server sent.
    struct Outgoing: Sendable {
        let json: Data
        /// Whether it is the response, the last message of the request.
        let isResponse: Bool
    }

    nonisolated let logger: Logger
    /// What the server sends, ending after the response (or ``end()``).
    nonisolated let outgoing: AsyncStream<Outgoing>
    private let message: Data
    private let continuation: AsyncStream<Outgoing>.Continuation

    init(message: Data, logger: Logger) {
        self.message = message
        self.logger = logger
        (outgoing, continuation) = AsyncStream.makeStream(bufferingPolicy: .unbounded)
    }

    func connect() {}

    func disconnect() {
        continuation.finish()
    }

    func receive() -> AsyncThrowingStream<Data, any Error> {
        let message = self.message
        return AsyncThrowingStream { continuation in
            continuation.yield(message)
            continuation.finish()
        }
    }

    func send(_ data: Data) {
        let isResponse = Self.isResponse(data)
        continuation.yield(Outgoing(json: data, isResponse: isResponse))
        if isResponse { continuation.finish() }
    }

    /// Ends the request's messages without a response: the client cancelled it, and MCP sends none then.
    func end() {
        continuation.finish()
    }

    /// A JSON-RPC response has a `result` or an `error`, and no `method`.
    private static func isResponse(_ data: Data) -> Bool {
        guard let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else { return false }
        return object["method"] == nil && (object["result"] != nil || object["error"] != nil)
    }
}
