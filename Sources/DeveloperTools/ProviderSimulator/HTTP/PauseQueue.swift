import Locking
import NIOCore

/// The pauses of one length on one event loop, behind one timer for the earliest. Pauses of one length fall due in the
/// order they began, so a queue holds them in that order: a thousand streams pausing at once cost the loop one pending
/// timer, not a thousand in its timer heap, where each one due would be a sift through all the others.
final class PauseQueue: Sendable {
    private struct Key: Hashable {
        let loop: ObjectIdentifier
        let length: TimeAmount
    }

    private struct Waiter {
        let id: UInt64
        let due: NIODeadline
        let continuation: CheckedContinuation<Void, any Error>
    }

    private struct State {
        var waiters = CircularBuffer<Waiter>()
        var nextID: UInt64 = 0
        /// Whether a timer is set for the first waiter.
        var armed = false
    }

    /// The queues in use. A queue leaves once it has no one waiting, so lengths used once are not kept; a waiter that
    /// found it just before it left is still served by it.
    private static let queues = Locked<[Key: PauseQueue]>([:])

    private let key: Key
    private let loop: any EventLoop
    private let state = Locked(State())

    private init(key: Key, loop: any EventLoop) {
        self.key = key
        self.loop = loop
    }

    /// The queue for pauses of `length` on `loop`.
    static func on(_ loop: any EventLoop, lasting length: TimeAmount) -> PauseQueue {
        let key = Key(loop: ObjectIdentifier(loop), length: length)
        return queues.withLock { queues in
            if let queue = queues[key] { return queue }
            let queue = PauseQueue(key: key, loop: loop)
            queues[key] = queue
            return queue
        }
    }

    /// Waits for the queue's length; cancelling the task ends the wait with `CancellationError`.
    func wait() async throws {
        let id = state.withLock { state in
            state.nextID += 1
            return state.nextID
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                // Checked under the lock the cancellation handler takes: either it finds this waiter, or the task was
                // already cancelled when the waiter would have been added.
                let outcome: (cancelled: Bool, arm: NIODeadline?) = state.withLock { state in
                    guard !Task.isCancelled else { return (true, nil) }
                    let waiter = Waiter(id: id, due: .now() + key.length, continuation: continuation)
                    state.waiters.append(waiter)
                    guard !state.armed else { return (false, nil) }
                    state.armed = true
                    return (false, waiter.due)
                }
                if outcome.cancelled { continuation.resume(throwing: CancellationError()) }
                if let due = outcome.arm { arm(at: due) }
            }
        } onCancel: {
            let cancelled = state.withLock { state -> Waiter? in
                guard let index = state.waiters.firstIndex(where: { $0.id == id }) else { return nil }
                return state.waiters.remove(at: index)
            }
            cancelled?.continuation.resume(throwing: CancellationError())
        }
    }

    private func arm(at due: NIODeadline) {
        loop.scheduleTask(deadline: due) { self.fire() }
    }

    /// Ends every pause that is due, in the order they began, and sets the timer for the next.
    private func fire() {
        let now = NIODeadline.now()
        let (due, next) = state.withLock { state -> ([Waiter], NIODeadline?) in
            var due: [Waiter] = []
            while let first = state.waiters.first, first.due <= now { due.append(state.waiters.removeFirst()) }
            guard let next = state.waiters.first?.due else {
                state.armed = false
                return (due, nil)
            }
            return (due, next)
        }
        for waiter in due { waiter.continuation.resume() }
        if let next {
            arm(at: next)
        } else {
            Self.queues.withLock { queues in
                if queues[key] === self { queues[key] = nil }
            }
        }
    }
}
