#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// A value guarded by a lock: what the standard library's `Mutex` does, without its macOS 15 and iOS 18 floor, so the
/// package declares macOS 14 and iOS 17 for the apps' client while the server's shared state keeps one way of locking.
///
/// Like `Mutex`, it is `Sendable` whatever it holds: the value goes in as `sending` and each access is a `sending` borrow
/// under the lock, so nothing of it escapes unguarded.
public final class Locked<Value>: @unchecked Sendable {
    // A pthread mutex must not move once initialised: it lives in memory of its own, freed by `deinit`.
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    // Read and written only inside `withLock`, under `mutex`.
    private var value: Value

    public init(_ initialValue: consuming sending Value) {
        value = initialValue
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        let error = pthread_mutex_init(mutex, nil)
        precondition(error == 0, "pthread_mutex_init failed with \(error)")
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deinitialize(count: 1)
        mutex.deallocate()
    }

    /// Runs `body` with the value, holding the lock; `body` must not call `withLock` on the same value again.
    public func withLock<Result, Failure: Error>(
        _ body: (inout sending Value) throws(Failure) -> sending Result
    ) throws(Failure) -> sending Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body(&value)
    }
}
