/// Items that go out in calls, one call at a time: an item that finds no call out goes at once, alone, and those that
/// arrive while a call is out go together in the next one (up to ``mostPerCall``), sent as soon as that call is
/// answered, from the thread that answered it.
///
/// For writes whose fixed cost a call pays once, however many items it carries: at low load each item goes out at
/// once, and under load a call carries what queued behind the one before, so the backlog turns into larger calls rather
/// than more of them. No more items wait than callers add before their answers, which a caller that adds its next item
/// only once the last one is answered bounds by the number of such callers.
public final class CallLane<Item: Sendable, Answer: Sendable>: Sendable {
    /// What an item's caller is answered with.
    public typealias Answered = @Sendable (Result<Answer, any Error>) -> Void
    /// Sends `items` in one call and calls its last argument, once, with their answers in order or the call's error.
    public typealias Call = @Sendable (_ items: [Item], _ answered: @escaping @Sendable (Result<[Answer], any Error>) -> Void) -> Void

    private struct Waiting {
        let item: Item
        let answered: Answered
    }

    /// Whether a call is out, and the items waiting for the next (none while none is out).
    private struct State {
        var calling = false
        var waiting: [Waiting] = []
    }

    /// The most items one call carries.
    public let mostPerCall: Int
    private let call: Call
    private let state = Locked(State())

    public init(mostPerCall: Int, call: @escaping Call) {
        precondition(mostPerCall > 0, "a call carries at least one item")
        self.mostPerCall = mostPerCall
        self.call = call
    }

    /// Sends `item` at once when no call is out, else with the next call; `answered` gets its answer.
    public func add(_ item: Item, answered: @escaping Answered) {
        let callsNow = state.withLock { state in
            guard state.calling else {
                state.calling = true
                return true
            }
            state.waiting.append(Waiting(item: item, answered: answered))
            return false
        }
        if callsNow { send([Waiting(item: item, answered: answered)]) }
    }

    /// Sends `item` and returns its answer.
    public func add(_ item: Item) async throws -> Answer {
        try await withCheckedThrowingContinuation { continuation in
            add(item) { continuation.resume(with: $0) }
        }
    }

    /// Sends `batch` in one call; when it is answered, answers its callers, then sends what queued meanwhile or leaves
    /// the lane free.
    private func send(_ batch: [Waiting]) {
        call(batch.map(\.item)) { outcome in
            let answers = outcome.flatMap { answers in
                answers.count == batch.count
                    ? .success(answers) : .failure(CallLaneError.answerCount(answers.count, items: batch.count))
            }
            for (index, waiting) in batch.enumerated() { waiting.answered(answers.map { $0[index] }) }
            let next = self.state.withLock { state in
                let taken = Array(state.waiting.prefix(self.mostPerCall))
                state.waiting.removeFirst(taken.count)
                state.calling = !taken.isEmpty
                return taken
            }
            if !next.isEmpty { self.send(next) }
        }
    }
}

/// A call answered for another number of items than it carried.
public enum CallLaneError: Error, Equatable {
    case answerCount(Int, items: Int)
}
