import LoadTesting

/// Decides whether one planned request is admitted: the API, or the naive limiter of the negative control.
protocol AdmissionDecider: Sendable {
    /// Opens the connections the generator's concurrent requests will use, so the first wave does not pay for them.
    func warmUp(connections: Int) async throws

    /// Decides `request` and hands `answer` the HTTP status (202 admitted, 429 refused; 0 when no answer came), the
    /// refusal's reason, and the units it says were left. `answer` runs on a thread of the decider's and must not block.
    func decide(_ request: PlannedRequest, answer: @escaping @Sendable (AdmissionAnswer) -> Void)

    /// Closes its connections.
    func close() async throws
}
