public import ServiceFailures

/// An answer from the object store other than success, or a request the client refused to send.
///
/// Transport failures (no connection, timeouts) are not wrapped: they arrive as `CurlClient`'s `HTTPClientError`.
/// Nothing here holds a credential: S3's error documents never echo the secret, and only their `Code` and
/// `Message` are kept.
public struct S3Error: BackingServiceError, CustomStringConvertible, Sendable {
    /// The HTTP status, such as 403; `nil` when the request was refused before it was sent.
    public let status: Int?
    /// S3's error code from the XML body, such as `SignatureDoesNotMatch`, `NoSuchBucket` or `AccessDenied`;
    /// `nil` when the body held none (HEAD responses, proxies' error pages).
    public let code: String?
    /// S3's message, or a description of why the request was not sent.
    public let message: String
    /// The operation that failed, such as `PutObject`.
    public let operation: String

    /// Creates an error; the client makes these, and tests of code that handles them may too.
    public init(status: Int?, code: String?, message: String, operation: String) {
        self.status = status
        self.code = code
        self.message = message
        self.operation = operation
    }

    public var service: BackingService { .objectStore }

    /// The server answered that it cannot serve now: S3's `InternalError` (500) and `ServiceUnavailable` or `SlowDown`
    /// (503), or a proxy's 502 or 504. Each asks the client to try again later; every other status is a refusal.
    public var isUnavailable: Bool {
        guard let status else { return false }
        return [500, 502, 503, 504].contains(status)
    }

    public var description: String {
        let status = self.status.map { " \($0)" } ?? ""
        let code = self.code.map { " \($0)" } ?? ""
        return "S3Error(\(self.operation)\(status)\(code)): \(self.message)"
    }
}
