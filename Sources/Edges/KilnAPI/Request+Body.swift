import HTTPTypes
import Hummingbird
import NIOCore

extension Request {
    /// The whole body, up to `limit` bytes. A larger declared `Content-Length` is refused (413) before any byte is
    /// read: the client learns at once, instead of after sending it all, and the node holds no connection waiting for it.
    mutating func collectBody(within limit: Int) async throws -> ByteBuffer {
        if let declared = headers[.contentLength].flatMap(Int.init), declared > limit { throw HTTPError(.contentTooLarge) }
        return try await collectBody(upTo: limit)
    }
}
