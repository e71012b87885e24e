/// Settings for the provider simulator.
public struct SimulatorConfiguration: Sendable {
    /// Address to bind. Default `127.0.0.1`.
    public var host: String
    /// Port to listen on; 0 picks a free port, reported through `onListening`. Default 8790.
    public var port: Int
    /// Pause between two streamed events (deltas), so streams arrive over time as real ones do. Default 10 ms.
    public var deltaInterval: Duration
    /// Fault rules applied to requests that carry no fault of their own. Default: no rules.
    public var scenario: SimulatorScenario
    /// Length of the queue of connections not yet accepted. Default 4096: a small backlog drops SYNs under
    /// load, and clients would see connect timeouts that no test asked for.
    public var backlog: Int
    /// Status polls a fal.ai request takes to complete: the first ones answer `IN_QUEUE` with a falling
    /// position, the one before completion `IN_PROGRESS`, and this one `COMPLETED`. Default 4.
    public var falPollsToComplete: Int
    /// Called after each piece of a streamed answer is written, with the request id the answer carries (its
    /// `request-id` or `x-request-id`) and the bytes; for benchmarks that time what becomes of each piece downstream.
    /// Default none.
    public var onStreamWrite: (@Sendable (_ requestID: String, _ bytes: [UInt8]) -> Void)?
    /// Called when a streamed answer starts, with its request id and the request's body; for benchmarks that must tell
    /// whose request an answer is. Default none.
    public var onStreamStart: (@Sendable (_ requestID: String, _ requestBody: [UInt8]) -> Void)?

    /// Creates a configuration; every argument has the default stated on its property.
    public init(
        host: String = "127.0.0.1",
        port: Int = 8790,
        deltaInterval: Duration = .milliseconds(10),
        scenario: SimulatorScenario = .init(),
        backlog: Int = 4096,
        falPollsToComplete: Int = 4,
        onStreamWrite: (@Sendable (_ requestID: String, _ bytes: [UInt8]) -> Void)? = nil,
        onStreamStart: (@Sendable (_ requestID: String, _ requestBody: [UInt8]) -> Void)? = nil
    ) {
        self.host = host
        self.port = port
        self.deltaInterval = deltaInterval
        self.scenario = scenario
        self.backlog = backlog
        self.falPollsToComplete = falPollsToComplete
        self.onStreamWrite = onStreamWrite
        self.onStreamStart = onStreamStart
    }
}
