import Foundation

/// Blocking rendering work (Cairo, Pango, zlib) run on a thread of its own, so it never holds one of the few threads
/// Swift's concurrency runs on, nor an event loop.
public enum OwnThread {
    /// Runs `work` on a new thread named `name` and returns what it returns or throws. Cancelling the calling task
    /// calls `onCancel` (on whichever thread cancels), which is how the work learns to stop early.
    public static func run<T: Sendable>(
        _ name: String, onCancel: @escaping @Sendable () -> Void = {}, _ work: @escaping @Sendable () throws -> T
    ) async throws -> T {
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                let thread = Thread { continuation.resume(with: Result { try work() }) }
                thread.name = name
                thread.start()
            }
        } onCancel: {
            onCancel()
        }
    }
}
