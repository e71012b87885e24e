public import Foundation

#if canImport(FoundationNetworking)
    public import FoundationNetworking
#endif

/// How ``Kiln`` reaches the server: one request, answered by its head and its body as it arrives. Every call the client
/// makes goes through it, the event stream included, so a test can stand between the client and a real Kiln (to drop an
/// answer or cut a stream) and an app can bring its own stack.
public protocol HTTPTransport: Sendable {
    /// Sends `request`; returns once the answer's head has come. Throws `URLError` when no answer came.
    func send(_ request: URLRequest) async throws -> TransportResponse
}

/// An answer's head, and its body as the bytes come (the body ends when the answer does, or throws `URLError` when the
/// connection breaks first).
public struct TransportResponse: Sendable {
    public let status: Int
    /// Header names in lower case.
    public let headers: [String: String]
    public let body: AsyncThrowingStream<Data, any Error>

    public init(status: Int, headers: [String: String], body: AsyncThrowingStream<Data, any Error>) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// The whole body.
    public func collect() async throws -> Data {
        var data = Data()
        for try await chunk in body { data.append(chunk) }
        return data
    }
}
