import Foundation
import Hummingbird
import KilnJSON

extension Provider {
    /// An error body in the provider's own format.
    /// - Parameters:
    ///   - status: the HTTP status, which picks the provider's error type.
    ///   - message: replaces the provider's usual message for that status.
    ///   - quota: the spend-cap or quota variant of a 429, which clients must not retry.
    ///   - retryDelay: Gemini's `RetryInfo.retryDelay`, in seconds.
    func errorBody(status: Int, message: String? = nil, requestID: String, quota: Bool = false, retryDelay: Int? = nil) -> JSONValue {
        switch self {
        case .anthropic:
            let (type, standard) = Self.anthropicError(status)
            var error: [String: JSONValue] = ["type": .string(type), "message": .string(message ?? standard)]
            if quota {
                error["message"] = .string(
                    message ?? "You have reached your specified API usage limits. You will regain access on the first day of next month.")
                error["details"] = .object(["error_code": "enforced_spend_limit_reached"])
            }
            return .object(["type": "error", "error": .object(error), "request_id": .string(requestID)])
        case .openAI:
            var (standard, type, code) = Self.openAIError(status)
            if quota {
                standard =
                    "You exceeded your current quota, please check your plan and billing details. For more information on this error, read the docs: https://platform.openai.com/docs/guides/error-codes/api-errors."
                type = "insufficient_quota"
                code = "insufficient_quota"
            }
            return .object([
                "error": .object([
                    "message": .string(message ?? standard), "type": .string(type), "param": .null, "code": code.map(JSONValue.string) ?? .null,
                ])
            ])
        case .gemini:
            let (state, standard) = Self.geminiError(status)
            var details: [JSONValue] = []
            if status == 429 {
                details.append(
                    .object([
                        "@type": "type.googleapis.com/google.rpc.QuotaFailure",
                        "violations": .array([
                            .object([
                                "quotaMetric": "generativelanguage.googleapis.com/generate_content_free_tier_requests",
                                "quotaId": quota
                                    ? "GenerateRequestsPerDayPerProjectPerModel-FreeTier" : "GenerateRequestsPerMinutePerProjectPerModel-FreeTier",
                            ])
                        ]),
                    ]))
                details.append(
                    .object([
                        "@type": "type.googleapis.com/google.rpc.Help",
                        "links": .array([
                            .object(["description": "Learn more about Gemini API quotas", "url": "https://ai.google.dev/gemini-api/docs/rate-limits"])
                        ]),
                    ]))
                if let retryDelay {
                    details.append(.object(["@type": "type.googleapis.com/google.rpc.RetryInfo", "retryDelay": .string("\(retryDelay)s")]))
                }
            }
            return .object([
                "error": .object([
                    "code": .number(Double(status)), "message": .string(message ?? standard), "status": .string(state), "details": .array(details),
                ])
            ])
        case .fal:
            if status == 422 {
                return .object([
                    "detail": .array([
                        .object(["loc": .array(["body", "prompt"]), "msg": .string(message ?? "field required"), "type": "value_error.missing"])
                    ])
                ])
            }
            if status == 401 { return .object(["detail": .string(message ?? "Unauthorized")]) }
            let (type, standard, _) = Self.falError(status, quota: quota)
            return .object(["detail": .string(message ?? standard), "error_type": .string(type)])
        }
    }

    private static func anthropicError(_ status: Int) -> (type: String, message: String) {
        switch status {
        case 401: ("authentication_error", "invalid x-api-key")
        case 402: ("billing_error", "Your credit balance is too low to access the Anthropic API.")
        case 403: ("permission_error", "Your API key does not have permission to use the specified resource.")
        case 404: ("not_found_error", "The requested resource could not be found.")
        case 409: ("conflict_error", "Conflict.")
        case 413: ("request_too_large", "Request exceeds the maximum allowed number of bytes.")
        case 429:
            (
                "rate_limit_error",
                "Number of request tokens has exceeded your per-minute rate limit (https://docs.anthropic.com/en/api/rate-limits); see the response headers for current usage. Please reduce the prompt length or the maximum tokens requested, or try again later."
            )
        case 529: ("overloaded_error", "Overloaded")
        case 400..<500: ("invalid_request_error", "Invalid request.")
        default: ("api_error", "Internal server error")
        }
    }

    private static func openAIError(_ status: Int) -> (message: String, type: String, code: String?) {
        switch status {
        case 401:
            (
                "Incorrect API key provided. You can find your API key at https://platform.openai.com/account/api-keys.", "invalid_request_error",
                "invalid_api_key"
            )
        case 403: ("Country, region, or territory not supported", "request_forbidden", "unsupported_country_region_territory")
        case 404: ("The model does not exist or you do not have access to it.", "invalid_request_error", "model_not_found")
        case 413: ("Request too large for this model. Please reduce the size of your request.", "invalid_request_error", "request_too_large")
        case 422: ("Unprocessable entity: the request was well-formed but could not be processed.", "invalid_request_error", nil)
        case 429:
            (
                "Rate limit reached for requests per min (RPM): Limit 60, Used 60, Requested 1. Please try again later.", "requests",
                "rate_limit_exceeded"
            )
        case 503: ("The engine is currently overloaded, please try again later.", "server_error", nil)
        case 400..<500: ("Invalid request.", "invalid_request_error", nil)
        default: ("The server had an error while processing your request. Sorry about that!", "server_error", nil)
        }
    }

    private static func geminiError(_ status: Int) -> (status: String, message: String) {
        switch status {
        case 401: ("UNAUTHENTICATED", "Request had invalid authentication credentials.")
        case 403:
            (
                "PERMISSION_DENIED",
                "Method doesn't allow unregistered callers (callers without established identity). Please use API Key or other form of API consumer identity to call this API."
            )
        case 404: ("NOT_FOUND", "models/unknown is not found for API version v1beta, or is not supported for generateContent.")
        case 409: ("ABORTED", "The request was aborted.")
        case 429: ("RESOURCE_EXHAUSTED", "You exceeded your current quota, please check your plan and billing details.")
        case 503: ("UNAVAILABLE", "The model is overloaded. Please try again later.")
        case 504: ("DEADLINE_EXCEEDED", "Deadline expired before operation could complete.")
        case 400..<500: ("INVALID_ARGUMENT", "Request contains an invalid argument.")
        default:
            ("INTERNAL", "An internal error has occurred. Please retry or report in https://developers.generativeai.google/guide/troubleshooting")
        }
    }

    /// fal's error type, message and whether `X-Fal-Retryable` says to retry.
    static func falError(_ status: Int, quota: Bool = false) -> (type: String, message: String, retryable: Bool) {
        switch status {
        case 403 where quota: ("user_locked", "User is locked. Reason: Exhausted balance. Top up your balance at fal.ai/dashboard/billing.", false)
        case 429: ("rate_limited", "Concurrency limit exceeded. Please retry later.", true)
        case 503: ("runner_scheduling_failure", "Failed to schedule a runner for the request.", true)
        case 504: ("request_timeout", "Request timed out", true)
        case 500..<600: ("internal_error", "Internal server error", true)
        case 404: ("not_found", "Not Found", false)
        case 413: ("request_too_large", "Request body too large", false)
        default: ("invalid_request", "Invalid request", false)
        }
    }

    /// The error response, with the provider's headers and the request id.
    func errorResponse(
        status: Int, message: String? = nil, requestID: (header: String, value: String), quota: Bool = false, retryDelay: Int? = nil,
        headers: [(String, String)] = []
    ) -> Response {
        var fields = [(requestID.header, requestID.value)] + headers
        if self == .fal {
            let (type, _, retryable) = Self.falError(status, quota: quota)
            fields.append(("x-fal-retryable", retryable ? "true" : "false"))
            if status != 401, status != 422 { fields.append(("x-fal-error-type", type)) }
        }
        let body = self.errorBody(status: status, message: message, requestID: requestID.value, quota: quota, retryDelay: retryDelay)
        return .json(status, body, headers: fields)
    }

    /// The response a status-type fault produces, or `nil` for faults that shape a normal answer instead.
    func faultResponse(_ fault: FaultSpec, requestID: (header: String, value: String), sequence: UInt64) -> Response? {
        switch fault.mode {
        case .rateLimit:
            let seconds = fault.integer("retry_after", default: 7)
            var headers = self.rateLimitHeaders(sequence: sequence, exhaustedFor: seconds)
            if !fault.flag("no_header") {
                let value = fault.flag("http_date") ? Self.httpDate(Date().addingTimeInterval(Double(seconds))) : String(seconds)
                headers.append(("retry-after", value))
            }
            if let milliseconds = fault.parameters["retry_after_ms"] { headers.append(("retry-after-ms", milliseconds)) }
            return self.errorResponse(status: 429, requestID: requestID, retryDelay: seconds, headers: headers)
        case .quotaExhausted:
            return self.errorResponse(status: self == .fal ? 403 : 429, requestID: requestID, quota: true)
        case .overloaded:
            return self.errorResponse(status: self == .anthropic ? 529 : 503, requestID: requestID)
        case .serverError:
            return self.errorResponse(status: 500, requestID: requestID)
        case .noRetry:
            return self.errorResponse(status: 500, requestID: requestID, headers: [("x-should-retry", "false")])
        case .status:
            return self.errorResponse(status: fault.statusCode ?? 400, requestID: requestID)
        case .badGateway:
            return .bytes(502, Array(Self.badGatewayPage.utf8), contentType: "text/html", headers: [(requestID.header, requestID.value)])
        default:
            return nil
        }
    }

    /// What a gateway in front of the API answers when the origin is down: HTML, not JSON.
    static let badGatewayPage = """
        <html>
        <head><title>502 Bad Gateway</title></head>
        <body>
        <center><h1>502 Bad Gateway</h1></center>
        <hr><center>cloudflare</center>
        </body>
        </html>

        """

    /// The provider's rate-limit headers; with `exhaustedFor`, the remaining counts are 0 and reset after that
    /// many seconds.
    func rateLimitHeaders(sequence: UInt64, exhaustedFor: Int? = nil) -> [(String, String)] {
        let used = Int(sequence % 1000)
        switch self {
        case .anthropic:
            let reset = Self.rfc3339(Date().addingTimeInterval(Double(exhaustedFor ?? 1)))
            return [
                ("anthropic-ratelimit-requests-limit", "4000"),
                ("anthropic-ratelimit-requests-remaining", exhaustedFor == nil ? String(3999 - used) : "0"),
                ("anthropic-ratelimit-requests-reset", reset),
                ("anthropic-ratelimit-tokens-limit", "400000"),
                ("anthropic-ratelimit-tokens-remaining", exhaustedFor == nil ? String(400_000 - used * 1000) : "0"),
                ("anthropic-ratelimit-tokens-reset", reset),
            ]
        case .openAI:
            let reset = Self.goDuration(seconds: exhaustedFor ?? 1)
            return [
                ("x-ratelimit-limit-requests", "10000"),
                ("x-ratelimit-remaining-requests", exhaustedFor == nil ? String(9999 - used) : "0"),
                ("x-ratelimit-reset-requests", reset),
                ("x-ratelimit-limit-tokens", "2000000"),
                ("x-ratelimit-remaining-tokens", exhaustedFor == nil ? String(2_000_000 - used * 1000) : "0"),
                ("x-ratelimit-reset-tokens", exhaustedFor == nil ? "6m0s" : reset),
            ]
        case .gemini, .fal:
            return []
        }
    }

    /// Seconds as a Go `time.Duration` string, as OpenAI writes them: `7s`, `6m0s`, `1h2m3s`.
    static func goDuration(seconds: Int) -> String {
        let hours = seconds / 3600
        let minutes = seconds % 3600 / 60
        let rest = seconds % 60
        if hours > 0 { return "\(hours)h\(minutes)m\(rest)s" }
        if minutes > 0 { return "\(minutes)m\(rest)s" }
        return "\(rest)s"
    }

    /// An IMF-fixdate, as `retry-after` carries one: `Wed, 15 Jan 2025 14:24:00 GMT`.
    static func httpDate(_ date: Date) -> String {
        // A new formatter per call: DateFormatter is not Sendable, and this runs only for rate-limit faults.
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        return formatter.string(from: date)
    }

    /// `2025-01-15T14:24:00Z`.
    static func rfc3339(_ date: Date) -> String {
        date.formatted(.iso8601)
    }
}
