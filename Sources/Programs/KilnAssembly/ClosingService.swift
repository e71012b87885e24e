public import ServiceLifecycle

/// A pool or client in a process's service group: it waits for graceful shutdown, then closes. A group shuts its
/// services down in reverse order, so listing the pools before the API node or the worker closes them only after
/// those have finished with them; listed after them, what it does on shutdown (saying the node is draining) comes first.
public struct ClosingService: Service {
    private let close: @Sendable () async throws -> Void

    public init(_ close: @escaping @Sendable () async throws -> Void) {
        self.close = close
    }

    public func run() async throws {
        // Cancelled instead of shut down gracefully: close all the same.
        try? await gracefulShutdown()
        try await close()
    }
}
