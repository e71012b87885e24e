import NIOCore
import NIOPosix

/// A pause between two pieces of a streamed answer, timed by an event loop.
///
/// `Task.sleep` on Linux arms a Dispatch timer for each call: Dispatch's manager thread resets a `timerfd` and re-sorts
/// its heap, a pool thread fires the timer and hands the task back. With a thousand streams pausing ten times a second
/// that is a large part of the simulator's CPU, and the threads it wakes take the cores from the Kiln processes the
/// benchmark times. An event loop keeps its timers in a heap it checks on each turn, with no thread of its own; the
/// pauses of one length wait in a ``PauseQueue`` behind one timer of it.
enum EventLoopPause {
    /// Waits for `duration` on the current event loop (or one of the shared group's), as `Task.sleep(for:)` does:
    /// cancelling the task ends the wait with `CancellationError`.
    static func wait(for duration: Duration) async throws {
        let loop = MultiThreadedEventLoopGroup.currentEventLoop ?? MultiThreadedEventLoopGroup.singleton.any()
        try await PauseQueue.on(loop, lasting: TimeAmount(duration)).wait()
    }
}
