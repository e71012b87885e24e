/// A request submitted to the simulated fal.ai queue.
struct FalRequest: Sendable {
    /// `owner/app`, the part of the model id the status, result and cancel URLs use.
    let application: String
    /// The submitted input.
    let input: JSONValue
    /// Status polls answered so far; the request completes after ``SimulatorConfiguration/falPollsToComplete``.
    var polls: Int = 0
    var cancelled = false
}
