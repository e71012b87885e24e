import Atomics
import Glibc
import NIOCore
import NIOPosix

/// Makes the event loops of SwiftNIO's singleton group Swift Concurrency's global executor, as
/// `NIOSingletons.unsafeTryInstallSingletonPosixEventLoopGroupAsConcurrencyGlobalExecutor()` does, except that each job
/// runs as the generic executor's, not as the loop's serial executor.
///
/// Run as the loop's, a job would hop at every call into a nonisolated async function: the function asks for the
/// generic executor on entry, the loop is not it and cannot hand its thread over, so Swift enqueues the task on the loop
/// again and it goes on at the loop's next turn: about ten extra trips through a loop's queue a request in the API node
/// (Hummingbird's responders, the middleware, Kiln's submission path), each a `swift_task_switch` and an enqueue. Run
/// as the generic executor's, those calls go on in place. A job still runs on the loop it was
/// enqueued from (a task resumed by a reply read on a loop goes on there), or on the next loop when it comes from
/// another thread, so a request is read, sent to Redis, answered and written on one thread.
public enum EventLoopExecutor {
    private typealias EnqueueHook = @convention(thin) (UnownedJob, @convention(thin) (UnownedJob) -> Void) -> Void

    /// Swift's generic executor, where nonisolated code runs: the executor reference of all zeroes (the runtime's
    /// `SerialExecutorRef::generic()`), which `UnownedSerialExecutor` has no public initialiser for.
    private static let generic = unsafeBitCast((0, 0), to: UnownedSerialExecutor.self)

    /// Installs the event loops as the global executor. Call it once, first thing: tasks enqueued before keep running
    /// where they were. - Returns: false when the runtime has no hook for it or another executor holds it.
    @discardableResult
    public static func install() -> Bool {
        guard let hookAddress = dlsym(dlopen(nil, RTLD_NOW), "swift_task_enqueueGlobal_hook") else { return false }
        let hook = UnsafeAtomic<UnsafeRawPointer?>(at: hookAddress.assumingMemoryBound(to: UnsafeRawPointer?.AtomicRepresentation.self))
        // A thin function is one pointer: the hook's value.
        return hook.compareExchange(expected: nil, desired: unsafeBitCast(enqueue, to: UnsafeRawPointer.self), ordering: .sequentiallyConsistent)
            .exchanged
    }

    private static let enqueue: EnqueueHook = { job, _ in
        // The current loop when called on one (a reply read there resumed the task), else the next.
        MultiThreadedEventLoopGroup.singleton.any().execute { job.runSynchronously(on: generic) }
    }
}
