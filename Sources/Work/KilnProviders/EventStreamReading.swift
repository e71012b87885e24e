import CurlClient

/// What a provider's event stream has brought so far, read piece by piece on the HTTP client's transfer thread: the
/// events go to their handler as they complete; an error status's body is kept for its classification.
struct EventStreamReading {
    private var parser = ServerSentEventParser()
    /// The body of an answer that is not a 2xx.
    private(set) var errorBody: [UInt8] = []
    /// What the event handler threw: the stream ended there.
    private(set) var failure: (any Error)?
    /// The handler saw the stream's closing event.
    private(set) var closed = false

    /// Takes one piece of the body; false once the stream needs no more (closed, or its handler threw).
    mutating func take(
        _ bytes: UnsafeRawBufferPointer, of head: HTTPResponseHead, onEvent: (ServerSentEvent, HTTPHeaders) throws -> Bool
    ) -> Bool {
        guard (200..<300).contains(head.status) else {
            errorBody.append(contentsOf: bytes)
            return true
        }
        for event in parser.parse(bytes) {
            do {
                // The closing event: ending the transfer here closes its connection.
                if try onEvent(event, head.headers) {
                    closed = true
                    return false
                }
            } catch {
                failure = error
                return false
            }
        }
        return true
    }
}
