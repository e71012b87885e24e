/// An HTTP/1.1 request for ``LoadClient``, as the bytes that go on the wire: built once, sent as they are.
public struct LoadRequest: Sendable {
    let bytes: [UInt8]

    /// A request for `path` on the client's server, with a `Content-Length` body (none when `body` is empty and the
    /// method is `GET`). `headers` must not hold `Host` or `Content-Length`: the request writes both.
    public init(method: String, path: String, host: String, headers: [(name: String, value: String)] = [], body: [UInt8] = []) {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(256 + body.count)
        for piece in [method, " ", path, " HTTP/1.1\r\nHost: ", host, "\r\n"] { bytes += piece.utf8 }
        for (name, value) in headers {
            for piece in [name, ": ", value, "\r\n"] { bytes += piece.utf8 }
        }
        if method != "GET" || !body.isEmpty {
            for piece in ["Content-Length: ", String(body.count), "\r\n"] { bytes += piece.utf8 }
        }
        bytes += "\r\n".utf8
        self.bytes = bytes + body
    }
}

/// What the server answered one ``LoadRequest``.
public struct LoadResponse: Sendable {
    public let status: Int
    public let body: [UInt8]
}
