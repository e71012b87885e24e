/// A complete HTTP response, body buffered in memory.
public struct HTTPResponse: Sendable {
    /// The status code, such as 200.
    public var status: Int
    /// The header fields of the final response (interim `1xx` responses are dropped).
    public var headers: HTTPHeaders
    /// The body bytes, exactly as received.
    public var body: [UInt8]

    /// Creates a response.
    public init(status: Int, headers: HTTPHeaders = [:], body: [UInt8] = []) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// The value of the first header field called `name`, compared without regard to ASCII case.
    public func header(_ name: String) -> String? {
        self.headers[name]
    }
}
