/// The status and header fields of a response whose body went, as it arrived, to a receiver
/// (``HTTPClient/stream(_:timeout:receive:)``).
public struct HTTPResponseHead: Sendable {
    /// The status code, such as 200.
    public let status: Int
    /// The header fields of the final response (interim `1xx` responses are dropped).
    public let headers: HTTPHeaders

    /// Creates a response head.
    public init(status: Int, headers: HTTPHeaders) {
        self.status = status
        self.headers = headers
    }
}
