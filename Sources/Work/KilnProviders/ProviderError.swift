/// Why a provider call did not produce an answer, and whether trying again can help.
///
/// `description` names the provider, the status and the provider's own error type and message; it never holds
/// a key, a prompt or generated text, so it is safe to log.
public struct ProviderError: Error, Sendable, CustomStringConvertible {
    /// What kind of failure this is; match on it with `==`.
    public struct Kind: Sendable, Hashable, CustomStringConvertible {
        private let name: String
        private init(_ name: String) {
            self.name = name
        }

        /// The provider asked us to slow down (a 429 about rate, not about money).
        public static let rateLimited = Self("rateLimited")
        /// The provider as a whole is overloaded (Anthropic's 529, a 503).
        public static let overloaded = Self("overloaded")
        /// The provider failed (5xx, or an error reported inside a stream that had started).
        public static let server = Self("server")
        /// The connection failed or broke before the answer was complete.
        public static let transport = Self("transport")
        /// No answer, or no next byte of it, within the time allowed.
        public static let timeout = Self("timeout")
        /// The request was refused as malformed or too large (400, 404, 413, 422): sending it again cannot help.
        public static let invalidRequest = Self("invalidRequest")
        /// The key is missing, wrong or lacks permission (401, 403): an operator must act.
        public static let authentication = Self("authentication")
        /// The account's money or spend limit is exhausted (402, OpenAI's `insufficient_quota`, Anthropic's
        /// `enforced_spend_limit_reached`): not retried until an operator acts.
        public static let quotaExhausted = Self("quotaExhausted")
        /// The model refused, or the provider's own filter stopped the output.
        public static let contentRefused = Self("contentRefused")
        /// The answer arrived but was not in the provider's documented format.
        public static let malformedResponse = Self("malformedResponse")
        /// A stream ended cleanly but without its closing event (`message_stop`, `[DONE]`).
        public static let truncatedStream = Self("truncatedStream")

        public var description: String { self.name }
    }

    /// What kind of failure this is.
    public let kind: Kind
    /// The provider's name in Kiln's configuration, e.g. `anthropic`.
    public let provider: String
    /// The HTTP status, when a response arrived.
    public let status: Int?
    /// The provider's own error type or code, e.g. `overloaded_error`, `insufficient_quota`.
    public let code: String?
    /// What went wrong, in the provider's words where it gave any.
    public let message: String
    /// The provider's id of the request (`request-id`, `x-request-id`), to quote to its support.
    public let requestID: String?
    /// How long the provider asked us to wait (`retry-after-ms`, `retry-after`, Gemini's `retryDelay`).
    public let retryAfter: Duration?
    /// Whether sending the same request again may succeed, by the retry table (and `x-should-retry`, which wins).
    public let isRetryable: Bool

    /// Creates an error; the clients make these, and tests of code that handles them may too.
    public init(
        kind: Kind, provider: String, status: Int? = nil, code: String? = nil, message: String, requestID: String? = nil,
        retryAfter: Duration? = nil, isRetryable: Bool
    ) {
        self.kind = kind
        self.provider = provider
        self.status = status
        self.code = code
        self.message = message
        self.requestID = requestID
        self.retryAfter = retryAfter
        self.isRetryable = isRetryable
    }

    /// Back-pressure rather than failure: the provider is fine but wants fewer requests for a while.
    public var isThrottling: Bool {
        self.kind == .rateLimited || self.kind == .overloaded
    }

    public var description: String {
        var text = "\(self.provider) \(self.kind)"
        if let status { text += " (HTTP \(status))" }
        if let code { text += " \(code)" }
        text += ": \(self.message)"
        if let requestID { text += " [request \(requestID)]" }
        return text
    }
}
