import Locking
import Testing

@Suite struct CallLaneTests {
    /// Calls the test answers by hand: each call's items, and the closure that answers it.
    private final class HeldCalls: Sendable {
        private let calls = Locked<[(items: [Int], answer: @Sendable (Result<[String], any Error>) -> Void)]>([])

        var made: [[Int]] { calls.withLock { $0.map(\.items) } }

        func lane(mostPerCall: Int) -> CallLane<Int, String> {
            CallLane(mostPerCall: mostPerCall) { items, answered in self.calls.withLock { $0.append((items, answered)) } }
        }

        /// Answers call `index` with each item's text, or with `error`.
        func answer(_ index: Int, failing error: (any Error)? = nil) {
            let call = calls.withLock { $0[index] }
            call.answer(error.map { .failure($0) } ?? .success(call.items.map { "answer \($0)" }))
        }

        /// Answers call `index` with one answer too few.
        func answerShort(_ index: Int) {
            let call = calls.withLock { $0[index] }
            call.answer(.success(call.items.dropLast().map { "answer \($0)" }))
        }
    }

    private struct Refused: Error {}

    /// What each item's caller was answered, by item.
    private final class Answers: Sendable {
        private let answers = Locked<[Int: Result<String, any Error>]>([:])

        func record(_ item: Int) -> @Sendable (Result<String, any Error>) -> Void {
            { answer in self.answers.withLock { $0[item] = answer } }
        }

        func text(_ item: Int) -> String? { answers.withLock { try? $0[item]?.get() } }
        func failed(_ item: Int) -> Bool { answers.withLock { if case .failure = $0[item] { true } else { false } } }
        var count: Int { answers.withLock { $0.count } }
    }

    /// A lane whose calls the test answers, with `items` added in order.
    private static func lane(mostPerCall: Int, adding items: ClosedRange<Int>) -> (CallLane<Int, String>, HeldCalls, Answers) {
        let calls = HeldCalls()
        let answers = Answers()
        let lane = calls.lane(mostPerCall: mostPerCall)
        for item in items { lane.add(item, answered: answers.record(item)) }
        return (lane, calls, answers)
    }

    @Test func anItemGoesAtOnceAndThoseThatComeMeanwhileGoTogetherInTheNext() {
        let (lane, calls, answers) = Self.lane(mostPerCall: 10, adding: 1...1)
        #expect(calls.made == [[1]])
        for item in 2...4 { lane.add(item, answered: answers.record(item)) }
        #expect(calls.made == [[1]], "one call out at a time")
        calls.answer(0)
        #expect(calls.made == [[1], [2, 3, 4]])
        #expect(answers.text(1) == "answer 1")
        #expect(answers.count == 1)
        calls.answer(1)
        #expect((1...4).map(answers.text) == ["answer 1", "answer 2", "answer 3", "answer 4"])
        lane.add(5, answered: answers.record(5))
        #expect(calls.made == [[1], [2, 3, 4], [5]], "a free lane sends at once")
    }

    @Test func aCallCarriesNoMoreThanItsMost() {
        let (_, calls, _) = Self.lane(mostPerCall: 2, adding: 1...6)
        calls.answer(0)
        calls.answer(1)
        calls.answer(2)
        #expect(calls.made == [[1], [2, 3], [4, 5], [6]])
    }

    @Test func aFailedCallFailsItsOwnItemsOnlyAndTheLaneGoesOn() {
        let (_, calls, answers) = Self.lane(mostPerCall: 10, adding: 1...3)
        calls.answer(0, failing: Refused())
        #expect(answers.failed(1))
        #expect(answers.count == 1)
        calls.answer(1)
        #expect(answers.text(2) == "answer 2")
        #expect(answers.text(3) == "answer 3")
    }

    @Test func aCallAnsweringForFewerItemsFailsThem() {
        let (_, calls, answers) = Self.lane(mostPerCall: 10, adding: 1...3)
        calls.answer(0)
        calls.answerShort(1)
        #expect(answers.failed(2))
        #expect(answers.failed(3))
    }

    @Test func anAwaitingCallerGetsItsOwnAnswer() async throws {
        let lane = CallLane<Int, Int>(mostPerCall: 5) { items, answered in answered(.success(items.map { $0 * 10 })) }
        let answers = try await withThrowingTaskGroup(of: (Int, Int).self) { group in
            for item in 1...20 { group.addTask { (item, try await lane.add(item)) } }
            return try await group.reduce(into: [:]) { $0[$1.0] = $1.1 }
        }
        #expect(answers == Dictionary(uniqueKeysWithValues: (1...20).map { ($0, $0 * 10) }))
    }
}
