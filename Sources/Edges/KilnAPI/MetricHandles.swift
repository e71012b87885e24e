import Locking

/// Metric handles made once for each set of dimensions and kept: making a `Counter` or a `Timer` asks the metrics
/// factory, which takes its lock and looks the series up, too dear to do for every request. The dimensions are
/// bounded (routes, methods, statuses, tenants, decisions), so the handles are too.
final class MetricHandles<Key: Hashable & Sendable, Handles: Sendable>: Sendable {
    private let made = Locked<[Key: Handles]>([:])
    private let make: @Sendable (Key) -> Handles

    init(_ make: @escaping @Sendable (Key) -> Handles) {
        self.make = make
    }

    subscript(key: Key) -> Handles {
        made.withLock { made in
            if let handles = made[key] { return handles }
            let handles = make(key)
            made[key] = handles
            return handles
        }
    }
}
