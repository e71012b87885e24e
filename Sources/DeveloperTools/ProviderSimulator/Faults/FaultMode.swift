/// The faults the simulator reproduces, by their name in a fault spec.
enum FaultMode: String, Sendable, CaseIterable {
    case rateLimit = "rate_limit"
    case quotaExhausted = "quota_exhausted"
    case overloaded
    case serverError = "server_error"
    case badGateway = "bad_gateway"
    case noRetry = "no_retry"
    case status
    case slowFirstByte = "slow_first_byte"
    case keepalive
    case trickle
    case stall
    case cut
    case noFinalEvent = "no_final_event"
    case streamError = "stream_error"
    case malformed
    case fencedJSON = "fenced_json"
    case invalidJSON = "invalid_json"
    case refusal
    case flagged
    case hang
    case crlf
}
