/// An HTTP response whose head has arrived and whose body arrives as it is received.
public struct HTTPStreamingResponse: Sendable {
    /// The status code, such as 200.
    public let status: Int
    /// The header fields of the final response (interim `1xx` responses are dropped).
    public let headers: HTTPHeaders
    /// Body chunks in arrival order, split wherever the network split them; it finishes when the
    /// transfer ends and throws ``HTTPClientError`` if the transfer fails.
    ///
    /// Chunks are buffered without limit until read. Dropping this sequence, or cancelling the task
    /// that iterates it, removes the transfer from the client and closes its connection.
    public let body: AsyncThrowingStream<[UInt8], any Error>

    /// Creates a streaming response.
    public init(status: Int, headers: HTTPHeaders, body: AsyncThrowingStream<[UInt8], any Error>) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// The value of the first header field called `name`, compared without regard to ASCII case.
    public func header(_ name: String) -> String? {
        self.headers[name]
    }
}
