internal import CCurl

/// A failure of an ``HTTPClient`` transfer. HTTP error statuses are responses, not errors.
///
/// `description` holds libcurl's message, which names hosts and ports but never header values or
/// bodies, so it is safe to log.
public struct HTTPClientError: Error, CustomStringConvertible, Sendable {
    /// What kind of failure this is; match on it with `==`.
    public struct Kind: Sendable, Hashable, CustomStringConvertible {
        private enum Base: Hashable {
            case connect
            case timeout
            case cancelled
            case shutdown
            case invalidRequest
            case transport
        }

        private let base: Base
        private init(_ base: Base) {
            self.base = base
        }

        /// No connection could be made: the host did not resolve or refused the connection.
        public static let connect = Self(.connect)
        /// The connect timeout or the transfer timeout expired.
        public static let timeout = Self(.timeout)
        /// The calling task was cancelled, or the streamed body was dropped.
        public static let cancelled = Self(.cancelled)
        /// The client was shut down before the transfer finished.
        public static let shutdown = Self(.shutdown)
        /// The request cannot be sent as given, for example a header holding a line break.
        public static let invalidRequest = Self(.invalidRequest)
        /// Any other libcurl failure; ``HTTPClientError/code`` holds the `CURLcode`.
        public static let transport = Self(.transport)

        public var description: String {
            switch self.base {
            case .connect: "connect"
            case .timeout: "timeout"
            case .cancelled: "cancelled"
            case .shutdown: "shutdown"
            case .invalidRequest: "invalidRequest"
            case .transport: "transport"
            }
        }
    }

    /// What kind of failure this is.
    public let kind: Kind
    /// The libcurl `CURLcode`, when libcurl reported the failure.
    public let code: Int?
    /// What went wrong, in libcurl's words when it reported the failure.
    public let message: String

    /// Creates an error; the client makes these, and tests of code that handles them may too.
    public init(kind: Kind, code: Int? = nil, message: String) {
        self.kind = kind
        self.code = code
        self.message = message
    }

    public var description: String {
        let code = self.code.map { " (curl \($0))" } ?? ""
        return "HTTPClientError.\(self.kind): \(self.message)\(code)"
    }

    static let cancelled = Self(kind: .cancelled, message: "the transfer was cancelled")
    static let shutdown = Self(kind: .shutdown, message: "the client is shut down")

    /// Classifies a libcurl result; `message` is the easy handle's error buffer or `curl_easy_strerror`.
    static func curl(_ code: CURLcode, message: String) -> Self {
        let kind: Kind =
            switch code {
            case CURLE_COULDNT_CONNECT, CURLE_COULDNT_RESOLVE_HOST, CURLE_COULDNT_RESOLVE_PROXY: .connect
            case CURLE_OPERATION_TIMEDOUT: .timeout
            default: .transport
            }
        return Self(kind: kind, code: Int(code.rawValue), message: message)
    }
}
