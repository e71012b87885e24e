import KilnProviders
import Locking

/// Carries streamed text from a provider to the job's event stream without making the provider wait on Redis: the
/// provider side only appends, and one writer sends what has piled up whenever its previous write is done. When
/// Redis keeps up every delta goes out alone, at once; when it falls behind, the pieces of each choice go out joined,
/// so a busy worker makes fewer, larger writes instead of a growing backlog.
final class DeltaRelay: Sendable {
    private struct State {
        /// Text not yet written, by choice, in arrival order of the choices.
        var pending: [(choice: Int, text: String)] = []
        var finished = false
    }

    private let state = Locked(State())
    private let signal: AsyncStream<Void>
    private let wake: AsyncStream<Void>.Continuation

    init() {
        (self.signal, self.wake) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
    }

    /// Queues a delta; never waits.
    func append(_ delta: TextDelta) {
        self.state.withLock { state in
            if let last = state.pending.indices.last, state.pending[last].choice == delta.choice {
                state.pending[last].text += delta.text
            } else {
                state.pending.append((delta.choice, delta.text))
            }
        }
        self.wake.yield()
    }

    /// No more deltas will come: ``run(write:)`` returns once it has written what is left.
    func finish() {
        self.state.withLock { $0.finished = true }
        self.wake.finish()
    }

    /// Writes what piles up, one write at a time, until ``finish()``.
    func run(write: (Int, String) async throws -> Void) async throws {
        for await _ in self.signal {
            try await self.flush(write)
        }
        try await self.flush(write)
    }

    private func flush(_ write: (Int, String) async throws -> Void) async throws {
        let batch = self.state.withLock { state in
            defer { state.pending.removeAll() }
            return state.pending
        }
        for (choice, text) in batch {
            try await write(choice, text)
        }
    }
}
