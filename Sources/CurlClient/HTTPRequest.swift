/// An HTTP request for ``HTTPClient``.
public struct HTTPRequest: Sendable {
    /// The method, such as `GET`, `POST` or `DELETE`.
    public var method: String
    /// The absolute `http` or `https` URL.
    public var url: String
    /// Header fields, sent in order. An `Expect:` field is added to requests with a body unless one is given here.
    public var headers: HTTPHeaders
    /// The body, sent byte for byte with a `Content-Length`; `nil` sends none (`POST` then sends an empty body).
    public var body: [UInt8]?

    /// Creates a request.
    public init(method: String = "GET", url: String, headers: HTTPHeaders = [:], body: [UInt8]? = nil) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
    }
}
