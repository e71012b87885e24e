import BlockingWork
import Glibc
import Locking
import Testing

/// What callers of blocking work rely on: the outcome comes back, no more than `threads` pieces run at once, a
/// caller cancelled while it waits leaves the line, and a running piece is told to stop.
@Suite struct BlockingExecutorTests {
    @Test func theWorksValueAndErrorComeBack() async throws {
        let executor = BlockingExecutor(name: "test", threads: 2)
        #expect(try await executor.run { 6 * 7 } == 42)
        await #expect(throws: Refused.self) { try await executor.run { throw Refused() } }
        try await executor.shutdown()
    }

    @Test func noMoreThanItsThreadsRunAtOnce() async throws {
        let executor = BlockingExecutor(name: "test", threads: 2)
        let counts = Flags<(now: Int, most: Int)>((0, 0))
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<12 {
                group.addTask {
                    try await executor.run {
                        counts.update {
                            $0.now += 1
                            $0.most = max($0.most, $0.now)
                        }
                        usleep(2_000)
                        counts.update { $0.now -= 1 }
                    }
                }
            }
            try await group.waitForAll()
        }
        #expect(counts.value.most == 2)
        try await executor.shutdown()
    }

    @Test func aCallerCancelledWhileItWaitsLeavesTheLineWithoutRunning() async throws {
        let executor = BlockingExecutor(name: "test", threads: 1)
        let gate = Gate()
        let blocker = Task { try await executor.run(onCancel: gate.open) { gate.wait() } }
        try await gate.waitUntilEntered()
        let ran = Flags(false)
        let waiting = Task { try await executor.run { ran.update { $0 = true } } }
        waiting.cancel()
        await #expect(throws: CancellationError.self) { try await waiting.value }
        gate.open()
        try await blocker.value
        try await executor.shutdown()
        #expect(ran.value == false)
    }

    @Test func cancellingARunningPieceCallsItsOnCancel() async throws {
        let executor = BlockingExecutor(name: "test", threads: 1)
        let gate = Gate()
        let running = Task {
            try await executor.run(onCancel: gate.open) {
                gate.wait()
                return "stopped"
            }
        }
        try await gate.waitUntilEntered()
        running.cancel()
        #expect(try await running.value == "stopped")
        try await executor.shutdown()
    }

    private struct Refused: Error {}
}

/// A value several threads read and change.
private final class Flags<Value: Sendable>: Sendable {
    private let state: Locked<Value>

    init(_ value: Value) { state = Locked(value) }

    var value: Value { state.withLock { $0 } }

    func update(_ change: (inout Value) -> Void) { state.withLock { change(&$0) } }
}

/// A blocking wait that work on an executor's thread can be held in, and released from outside.
private final class Gate: Sendable {
    private let state = Locked((entered: false, open: false))

    /// Blocks the calling thread until ``open()``.
    func wait() {
        state.withLock { $0.entered = true }
        while !state.withLock({ $0.open }) { usleep(1_000) }
    }

    @Sendable func open() { state.withLock { $0.open = true } }

    func waitUntilEntered() async throws {
        while !state.withLock({ $0.entered }) { try await Task.sleep(for: .milliseconds(1)) }
    }
}
