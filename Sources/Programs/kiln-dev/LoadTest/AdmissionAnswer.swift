/// What a decider said to one request.
struct AdmissionAnswer: Sendable {
    /// 202 admitted, 429 refused, 0 when no answer came.
    var status: Int
    /// A refusal's `reason`, another problem's `code`, or why no answer came; empty when admitted.
    var reason = ""
    /// The units a daily-quota refusal says were left.
    var remaining: Int?
}
