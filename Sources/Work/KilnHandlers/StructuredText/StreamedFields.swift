import KilnJSON
import KilnProviders
import Locking

/// The prose fields of one streamed structured answer, picked out of its JSON as it arrives (``JSONFieldStream``),
/// so an app's listeners receive story text, tagged by which of the answer's texts it belongs to.
final class StreamedFields: Sendable {
    private struct State {
        var stream: JSONFieldStream
        var relayedAny = false
    }

    private let state: Locked<State>

    init(select: @escaping @Sendable ([JSONFieldStream.Component]) -> Int?) {
        self.state = Locked(State(stream: JSONFieldStream(select: select)))
    }

    /// The listeners' deltas in one piece of the answer (the provider's choice is always the first: one answer).
    func shape(_ delta: TextDelta) -> [TextDelta] {
        state.withLock { state in
            let pieces = state.stream.read(delta.text).map { TextDelta(choice: $0.stream, text: $0.text) }
            if !pieces.isEmpty { state.relayedAny = true }
            return pieces
        }
    }

    /// Whether any text reached the listeners, so withdrawing the answer needs a `retract` event.
    var relayedAny: Bool { state.withLock { $0.relayedAny } }
}
