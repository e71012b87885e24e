import Locking

/// Items handed from many tasks to one consumer, which takes all of them at once when signalled.
final class SignalledBuffer<Item: Sendable>: Sendable {
    private let items = Locked<[Item]>([])
    private let signal: AsyncStream<Void>.Continuation
    let signals: AsyncStream<Void>

    init() {
        (signals, signal) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
    }

    func append(_ newItems: [Item]) {
        guard !newItems.isEmpty else { return }
        items.withLock { $0.append(contentsOf: newItems) }
        signal.yield()
    }

    func takeAll() -> [Item] {
        items.withLock { items in
            defer { items = [] }
            return items
        }
    }

    /// Ends the signals once the consumer has taken what is left.
    func finish() {
        signal.finish()
    }
}
