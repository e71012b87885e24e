public import CurlClient
public import Foundation
public import KilnJSON

/// The retry table: what an error response or a failed transfer means, read from its status, its headers and the
/// error body in whichever provider's shape it comes (Anthropic, OpenAI, Gemini, fal).
public struct ProviderFailureClassifier: Sendable {
    /// The provider's name, carried into every error.
    public let provider: String

    /// Creates a classifier for one provider.
    public init(provider: String) {
        self.provider = provider
    }

    /// The error a non-2xx response stands for.
    /// - Parameter now: the time an HTTP-date `retry-after` is measured from.
    public func error(status: Int, headers: HTTPHeaders, body: [UInt8], now: Date = Date()) -> ProviderError {
        let details = ErrorBody(body, contentType: headers["content-type"])
        let (kind, retryable) = Self.kind(status: status, code: details.code)
        return ProviderError(
            kind: kind, provider: self.provider, status: status, code: details.code, message: details.message ?? "HTTP \(status)",
            requestID: Self.requestID(headers) ?? details.requestID,
            retryAfter: Self.retryAfter(headers, now: now) ?? details.retryDelay,
            isRetryable: Self.override(headers) ?? retryable)
    }

    /// An error reported inside a stream that had already answered 200 (Anthropic's `event: error`, OpenAI's
    /// `data: {"error": …}`): judged by its type as if it had been the status it stands for.
    public func streamError(_ json: JSONValue, headers: HTTPHeaders) -> ProviderError {
        let details = ErrorBody(json: json)
        // Gemini's in-band errors carry the HTTP status they stand for; the others only a type.
        let status: Int =
            if let numeric = json["error"]?["code"]?.intValue, (400..<600).contains(numeric) {
                numeric
            } else {
                switch details.code {
                case "overloaded_error": 529
                case "rate_limit_error", "rate_limit_exceeded": 429
                case "invalid_request_error": 400
                default: 500
                }
            }
        let (kind, retryable) = Self.kind(status: status, code: details.code)
        return ProviderError(
            kind: kind, provider: self.provider, status: nil, code: details.code, message: details.message ?? "an error inside the stream",
            requestID: Self.requestID(headers), isRetryable: retryable)
    }

    /// The error a failed transfer stands for, or the cancellation it was.
    public func error(_ failure: HTTPClientError) -> any Error {
        let message = "\(failure.kind): \(failure.message)"
        switch failure.kind {
        case .cancelled:
            return CancellationError()
        case .timeout:
            return ProviderError(kind: .timeout, provider: self.provider, message: message, isRetryable: true)
        case .invalidRequest:
            return ProviderError(kind: .invalidRequest, provider: self.provider, message: message, isRetryable: false)
        default:
            // CURLcodes that say the request itself is wrong (bad URL, protocol, certificate): trying again cannot help.
            let permanent: Set<Int> = [1, 3, 47, 60]
            return ProviderError(
                kind: .transport, provider: self.provider, message: message, isRetryable: !permanent.contains(failure.code ?? 0))
        }
    }

    /// The status table of the official SDKs, with the money-related 429s that must not be retried.
    static func kind(status: Int, code: String?) -> (ProviderError.Kind, retryable: Bool) {
        switch status {
        case 401, 403: (.authentication, false)
        case 402: (.quotaExhausted, false)
        case 408: (.timeout, true)
        case 409: (.server, true)
        case 429 where ["insufficient_quota", "enforced_spend_limit_reached", ErrorBody.dailyQuotaCode].contains(code): (.quotaExhausted, false)
        case 429: (.rateLimited, true)
        case 503, 529: (.overloaded, true)
        case 500...: (.server, true)
        default: (.invalidRequest, false)
        }
    }

    /// `x-should-retry` (Anthropic and OpenAI) and `x-fal-retryable` (fal) overrule the table.
    static func override(_ headers: HTTPHeaders) -> Bool? {
        for name in ["x-should-retry", "x-fal-retryable"] {
            switch headers[name]?.lowercased() {
            case "true": return true
            case "false": return false
            default: continue
            }
        }
        return nil
    }

    static func requestID(_ headers: HTTPHeaders) -> String? {
        headers["request-id"] ?? headers["x-request-id"] ?? headers["x-fal-request-id"]
    }

    /// `retry-after-ms` (milliseconds, fractions allowed) first, then `retry-after` as seconds or as an HTTP-date.
    static func retryAfter(_ headers: HTTPHeaders, now: Date) -> Duration? {
        if let text = headers["retry-after-ms"], let milliseconds = Double(text), let wait = ProviderWait.milliseconds(milliseconds) {
            return wait
        }
        guard let text = headers["retry-after"]?.trimmingCharacters(in: .whitespaces) else { return nil }
        if let seconds = Double(text) {
            return ProviderWait.milliseconds(seconds * 1000)
        }
        guard let date = httpDate(text) else { return nil }
        return ProviderWait.milliseconds(max(0, date.timeIntervalSince(now)) * 1000)
    }

    private static func httpDate(_ text: String) -> Date? {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss zzz"
        return formatter.date(from: text)
    }
}

/// The useful parts of an error body in any provider's shape.
private struct ErrorBody {
    /// The code given to Gemini's 429 for a quota of requests per day: waiting seconds cannot help.
    static let dailyQuotaCode = "daily_quota_exhausted"

    var code: String?
    var message: String?
    var requestID: String?
    var retryDelay: Duration?

    init(_ body: [UInt8], contentType: String?) {
        guard let json = JSONValue.parse(String(decoding: body, as: UTF8.self)) else {
            // Gateways answer with HTML pages; their text is no use to anyone reading a log.
            self.init(json: .null)
            self.message = "a body that is not JSON (\(contentType ?? "no content type"), \(body.count) bytes)"
            return
        }
        self.init(json: json)
    }

    init(json: JSONValue) {
        guard case .object(let root) = json else { return }
        if case .string(let id) = root["request_id"] { self.requestID = id }
        if case .object(let error) = root["error"] {
            // Anthropic: error.type (+ error.details.error_code); OpenAI: error.code or error.type; Gemini: error.status.
            if case .object(let details) = error["details"], case .string(let code) = details["error_code"] {
                self.code = code
            } else if case .string(let code) = error["code"] {
                self.code = code
            } else if case .string(let type) = error["type"] {
                self.code = type
            } else if case .string(let status) = error["status"] {
                self.code = status
            }
            if case .string(let message) = error["message"] { self.message = message }
            if case .array(let details) = error["details"] {
                self.retryDelay = details.lazy.compactMap(Self.retryDelay).first
                if details.contains(where: Self.isDailyQuotaFailure) { self.code = Self.dailyQuotaCode }
            }
        } else if case .string(let message) = root["error"] {
            self.message = message
        } else {
            // fal: {"detail": "…", "error_type": "…"} or a validation list in `detail`.
            if case .string(let type) = root["error_type"] { self.code = type }
            switch root["detail"] {
            case .string(let detail): self.message = detail
            case .array(let items): self.message = items.compactMap(Self.validationMessage).joined(separator: "; ")
            default: break
            }
        }
    }

    /// Gemini's `google.rpc.RetryInfo`: `{"@type": "…RetryInfo", "retryDelay": "22s"}`.
    private static func retryDelay(_ detail: JSONValue) -> Duration? {
        guard case .object(let fields) = detail, case .string(let text) = fields["retryDelay"], text.hasSuffix("s"),
            let seconds = Double(text.dropLast())
        else { return nil }
        return ProviderWait.milliseconds(seconds * 1000)
    }

    /// Gemini's `google.rpc.QuotaFailure` naming a per-day quota (`…PerDay…` in a violation's `quotaId`).
    private static func isDailyQuotaFailure(_ detail: JSONValue) -> Bool {
        guard detail["@type"]?.stringValue?.hasSuffix("QuotaFailure") == true else { return false }
        return (detail["violations"]?.arrayValue ?? []).contains { $0["quotaId"]?.stringValue?.contains("PerDay") == true }
    }

    /// fal's `{"loc": ["body", "prompt"], "msg": "field required"}`.
    private static func validationMessage(_ item: JSONValue) -> String? {
        guard case .object(let fields) = item, case .string(let message) = fields["msg"] else { return nil }
        guard case .array(let location) = fields["loc"] else { return message }
        let path = location.compactMap { if case .string(let part) = $0 { part } else { nil } }.joined(separator: ".")
        return "\(path): \(message)"
    }
}
