internal import CEventPolling
import Glibc

/// A level-triggered epoll set plus an eventfd that other threads write to wake its waiter: the core of the
/// event loops that drive C clients' sockets on a thread of their own (CurlClient's transfer loop, PostgresClient's
/// query loop).
///
/// Only the loop thread calls anything but ``wake()``. Any thread may call ``wake()`` while the poller is open;
/// the owner makes sure no wakeup can race ``close()`` (see the loops' inbox locks).
public final class Poller: @unchecked Sendable {
    /// A descriptor that is ready, as `epoll_wait` reported it.
    public struct Event: Sendable {
        public let descriptor: Int32
        public let isReadable: Bool
        public let isWritable: Bool
        /// The peer hung up or the socket has an error (`EPOLLHUP`, `EPOLLERR`); reading tells which.
        public let isFailed: Bool
    }

    private let epoll: Int32
    private let wakeDescriptor: Int32
    private var events: [epoll_event]
    /// The descriptors in the set, so that one is added or changed with one call: a new one is added at once rather
    /// than after a change that fails (libcurl removes and adds a kept-alive connection's socket for every request).
    private var watched: Set<Int32> = []

    public init() throws(PollerError) {
        let epoll = epoll_create1(Int32(EPOLL_CLOEXEC))
        guard epoll >= 0 else { throw PollerError(call: "epoll_create1", errno: errno) }
        let wake = eventfd(0, Int32(EFD_NONBLOCK | EFD_CLOEXEC))
        guard wake >= 0 else {
            let code = errno
            Glibc.close(epoll)
            throw PollerError(call: "eventfd", errno: code)
        }
        var event = epoll_event(events: EPOLLIN.rawValue, data: epoll_data_t(fd: wake))
        guard epoll_ctl(epoll, EPOLL_CTL_ADD, wake, &event) == 0 else {
            let code = errno
            Glibc.close(wake)
            Glibc.close(epoll)
            throw PollerError(call: "epoll_ctl", errno: code)
        }
        self.epoll = epoll
        self.wakeDescriptor = wake
        self.events = Array(repeating: epoll_event(), count: 256)
    }

    /// Watches `descriptor` for the readiness asked for, adding it to the set or changing what it is watched for.
    public func watch(_ descriptor: Int32, reading: Bool, writing: Bool) {
        var mask: UInt32 = 0
        if reading { mask |= EPOLLIN.rawValue }
        if writing { mask |= EPOLLOUT.rawValue }
        var event = epoll_event(events: mask, data: epoll_data_t(fd: descriptor))
        // A descriptor closed without being unwatched left the set on its own, and its number may come back: each
        // call falls back on the other when the set disagrees.
        if self.watched.insert(descriptor).inserted {
            if epoll_ctl(self.epoll, EPOLL_CTL_ADD, descriptor, &event) != 0, errno == EEXIST {
                _ = epoll_ctl(self.epoll, EPOLL_CTL_MOD, descriptor, &event)
            }
        } else if epoll_ctl(self.epoll, EPOLL_CTL_MOD, descriptor, &event) != 0, errno == ENOENT {
            _ = epoll_ctl(self.epoll, EPOLL_CTL_ADD, descriptor, &event)
        }
    }

    /// Stops watching `descriptor`. Closing a descriptor already removed it from the set: nothing to report then.
    public func unwatch(_ descriptor: Int32) {
        self.watched.remove(descriptor)
        var unused = epoll_event()
        _ = epoll_ctl(self.epoll, EPOLL_CTL_DEL, descriptor, &unused)
    }

    /// Waits up to `milliseconds` (-1: without limit) for descriptors to become ready or for ``wake()``, and
    /// returns the ready descriptors; a wakeup alone returns none.
    public func wait(milliseconds: Int32) -> [Event] {
        let count = self.events.withUnsafeMutableBufferPointer { buffer in
            epoll_wait(self.epoll, buffer.baseAddress, Int32(buffer.count), milliseconds)
        }
        guard count > 0 else { return [] }
        var ready: [Event] = []
        ready.reserveCapacity(Int(count))
        for event in self.events[0..<Int(count)] {
            let descriptor = event.data.fd
            if descriptor == self.wakeDescriptor {
                var value: UInt64 = 0
                _ = read(self.wakeDescriptor, &value, MemoryLayout<UInt64>.size)
                continue
            }
            ready.append(
                Event(
                    descriptor: descriptor,
                    isReadable: event.events & EPOLLIN.rawValue != 0,
                    isWritable: event.events & EPOLLOUT.rawValue != 0,
                    isFailed: event.events & (EPOLLERR.rawValue | EPOLLHUP.rawValue) != 0
                ))
        }
        return ready
    }

    /// Makes the current or next ``wait(milliseconds:)`` return at once.
    public func wake() {
        var one: UInt64 = 1
        _ = write(self.wakeDescriptor, &one, MemoryLayout<UInt64>.size)
    }

    /// Closes the epoll set and the eventfd; call once, after the last ``wake()``.
    public func close() {
        Glibc.close(self.wakeDescriptor)
        Glibc.close(self.epoll)
    }
}
