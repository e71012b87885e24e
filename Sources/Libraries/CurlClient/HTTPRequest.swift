/// An HTTP request for ``HTTPClient``.
public struct HTTPRequest: Sendable {
    /// The method, such as `GET`, `POST` or `DELETE`.
    public var method: String
    /// The absolute `http` or `https` URL.
    public var url: String
    /// Header fields, sent in order. An `Expect:` field is added to unsigned requests with a body unless one is given here.
    public var headers: HTTPHeaders
    /// The body, sent byte for byte with a `Content-Length`; `nil` sends none (`POST` then sends an empty body).
    public var body: [UInt8]?
    /// Longest wait from the start of the transfer for the first byte of the response; `nil` waits as long as the
    /// transfer's own timeout allows. Providers that think before answering are told apart from dead ones by it.
    public var firstByteTimeout: Duration?
    /// Longest silence between two pieces of the response once it has started; `nil` for none. libcurl's own
    /// low-speed limit averages over its window and fires seconds late, so the client keeps this timer itself.
    public var idleTimeout: Duration?
    /// Signs the request with AWS Signature Version 4 when set; see ``AWSSignature`` for the headers the caller adds.
    public var awsSigV4: AWSSignature?

    /// Creates a request.
    public init(
        method: String = "GET", url: String, headers: HTTPHeaders = [:], body: [UInt8]? = nil, firstByteTimeout: Duration? = nil,
        idleTimeout: Duration? = nil, awsSigV4: AWSSignature? = nil
    ) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
        self.firstByteTimeout = firstByteTimeout
        self.idleTimeout = idleTimeout
        self.awsSigV4 = awsSigV4
    }
}
