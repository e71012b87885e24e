import KilnJSON

/// A request submitted to the simulated fal.ai queue.
struct FalRequest: Sendable {
    /// Where a request stands after some number of status polls.
    enum Status: Equatable {
        case inQueue(position: Int)
        case inProgress
        case completed
    }

    /// `owner/app`, the part of the model id the status, result and cancel URLs use.
    let application: String
    /// The submitted input.
    let input: JSONValue
    /// Status polls answered so far.
    var polls = 0
    var cancelled = false

    /// With `steps` polls to completion: `IN_QUEUE` with the position falling to 0, then `IN_PROGRESS` once,
    /// then `COMPLETED`. A cancelled request is completed (with an error result).
    func status(steps: Int) -> Status {
        if self.cancelled || self.polls >= steps { return .completed }
        if self.polls == steps - 1 { return .inProgress }
        return .inQueue(position: max(steps - 2 - self.polls, 0))
    }
}
