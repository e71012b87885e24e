import KilnPolicy

/// What the admission said to one request, and when: a line of a generator's decisions file.
public struct Decision: Sendable, Equatable {
    /// The barrier that released the request.
    public var wave: Int
    public var request: PlannedRequest
    /// The HTTP status: 202 admitted, 429 refused; 0 when no answer came.
    public var status: Int
    /// A refusal's `reason` (or another problem's `code`, or why no answer came); empty when admitted.
    public var reason: String
    /// The units of the class a `daily_quota_exhausted` refusal says were left; nil when it said nothing.
    public var remaining: Int?
    /// Wall-clock microseconds since 1970 when the request was sent and when its answer arrived: every generator runs
    /// on one machine, so their clocks agree and a device's admissions can be ordered across processes.
    public var sentAt: Int64
    public var answeredAt: Int64

    public init(wave: Int, request: PlannedRequest, status: Int, reason: String, remaining: Int? = nil, sentAt: Int64, answeredAt: Int64) {
        self.wave = wave
        self.request = request
        self.status = status
        self.reason = reason
        self.remaining = remaining
        self.sentAt = sentAt
        self.answeredAt = answeredAt
    }

    public var isAdmitted: Bool { status == 202 }

    /// Microseconds from sending to the answer.
    public var latency: Int64 { answeredAt - sentAt }

    /// Tab-separated: wave, scenario, identity, device, tier, kind, class, cost, status, reason, remaining (empty when
    /// unknown), sent and answered.
    public var line: String {
        let request = request
        // A reason from an error message could hold a tab or a newline, which would break the line.
        let reason = String(reason.map { $0 == "\t" || $0.isNewline ? " " : $0 })
        return [
            String(wave), request.scenario.rawValue, request.identity, request.device, request.tier, request.kind, request.quotaClass.rawValue,
            String(request.cost), String(status), reason, remaining.map(String.init) ?? "", String(sentAt), String(answeredAt),
        ].joined(separator: "\t")
    }

    /// Reads a ``line``; nil when it is not one.
    public init?(line: Substring) {
        let fields = line.split(separator: "\t", omittingEmptySubsequences: false)
        guard fields.count == 13, let wave = Int(fields[0]), let scenario = QuotaScenario(rawValue: String(fields[1])),
            let quotaClass = QuotaClass(rawValue: String(fields[6])), let cost = Int(fields[7]), let status = Int(fields[8]),
            fields[10].isEmpty || Int(fields[10]) != nil, let sentAt = Int64(fields[11]), let answeredAt = Int64(fields[12])
        else { return nil }
        let request = PlannedRequest(
            scenario: scenario, identity: String(fields[2]), device: String(fields[3]), tier: String(fields[4]), kind: String(fields[5]),
            quotaClass: quotaClass, cost: cost)
        self.init(
            wave: wave, request: request, status: status, reason: String(fields[9]), remaining: Int(fields[10]), sentAt: sentAt,
            answeredAt: answeredAt)
    }
}
