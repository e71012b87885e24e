import NIOCore
import NIOPosix
import Locking

/// Runs blocking work — a render, a file-system call, a blocking C call — on threads of its own, so it never holds one
/// of the few threads Swift's concurrency runs on, nor an event loop: Kiln's one way of running blocking work.
///
/// At most `threads` pieces run at once; callers beyond that wait in order. A caller cancelled while it waits leaves
/// the line at once with `CancellationError`; a piece already running is told through its `onCancel`, which is how it
/// learns to stop early (an encoder killed, a flag its loop checks).
public final class BlockingExecutor: Sendable {
    private struct Piece: Sendable {
        let id: UInt64
        /// Runs the work on the calling thread and resumes its caller with the outcome.
        let start: @Sendable () -> Void
        /// Resumes its caller with `error` instead.
        let fail: @Sendable (_ error: any Error) -> Void
        let onCancel: @Sendable () -> Void
    }

    private struct State {
        var waiting = CircularBuffer<Piece>()
        /// The pieces running, each with its `onCancel`.
        var running: [UInt64: @Sendable () -> Void] = [:]
    }

    private let threads: Int
    private let pool: NIOThreadPool
    private let state = Locked(State())
    private let ids = Locked<UInt64>(0)

    /// Starts `threads` threads whose names begin with `name`.
    public init(name: String, threads: Int) {
        self.threads = max(1, threads)
        self.pool = NIOThreadPool(numberOfThreads: self.threads)
        pool._start(threadNamePrefix: name + "-")
    }

    /// Runs `work` on one of the executor's threads and returns what it returns or throws.
    public func run<T: Sendable>(
        onCancel: @escaping @Sendable () -> Void = {}, _ work: @escaping @Sendable () throws -> T
    ) async throws -> T {
        let id = ids.withLock { next in
            defer { next &+= 1 }
            return next
        }
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<T, any Error>) in
                enqueue(
                    Piece(
                        id: id, start: { continuation.resume(with: Result { try work() }) },
                        fail: { continuation.resume(throwing: $0) }, onCancel: onCancel))
            }
        } onCancel: {
            cancel(id)
        }
    }

    /// Stops the threads once the work already started has finished; what still waits fails with `CancellationError`.
    public func shutdown() async throws {
        try await pool.shutdownGracefully()
    }

    private func enqueue(_ piece: Piece) {
        let (cancelled, startable) = state.withLock { state -> (Bool, [Piece]) in
            // Checked under the lock that `cancel` takes: a cancellation either finds the piece waiting or is seen here.
            if Task.isCancelled { return (true, []) }
            state.waiting.append(piece)
            return (false, takeStartable(&state))
        }
        if cancelled { piece.fail(CancellationError()) }
        start(startable)
    }

    private func cancel(_ id: UInt64) {
        enum Found { case waiting(Piece), running(@Sendable () -> Void), none }
        let found = state.withLock { state -> Found in
            if let index = state.waiting.firstIndex(where: { $0.id == id }) { return .waiting(state.waiting.remove(at: index)) }
            return state.running[id].map(Found.running) ?? .none
        }
        switch found {
        case .waiting(let piece): piece.fail(CancellationError())
        case .running(let onCancel): onCancel()
        case .none: break
        }
    }

    private func finished(_ id: UInt64) {
        start(
            state.withLock { state in
                state.running[id] = nil
                return takeStartable(&state)
            })
    }

    /// The waiting pieces that may start now, marked running.
    private func takeStartable(_ state: inout State) -> [Piece] {
        var startable: [Piece] = []
        while state.running.count < threads, let piece = state.waiting.popFirst() {
            state.running[piece.id] = piece.onCancel
            startable.append(piece)
        }
        return startable
    }

    private func start(_ pieces: [Piece]) {
        for piece in pieces {
            pool.submit { [self] state in
                // A piece that was waiting when the executor shut down does not run.
                if case .cancelled = state { piece.fail(CancellationError()) } else { piece.start() }
                finished(piece.id)
            }
        }
    }
}

extension BlockingExecutor {
    /// Renders (Cairo, Pango, zlib, the video encoder's feed): CPU-bound pieces that each take a core for up to
    /// minutes; a worker's `cpu` concurrency bounds how many it starts, this how many run at once.
    public static let rendering = BlockingExecutor(name: "kiln-render", threads: max(2, System.coreCount))
    /// The object stores' short pieces, many at once: the local store's blocking system calls, and hashing what either
    /// store writes.
    public static let files = BlockingExecutor(name: "kiln-files", threads: 16)
}
