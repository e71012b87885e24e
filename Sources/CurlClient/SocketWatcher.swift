import Glibc
internal import CCurl

/// The sockets libcurl asks the loop to watch, in one epoll set, plus an eventfd that other threads write to wake
/// the loop. With it the loop hands libcurl only the sockets that are ready (`curl_multi_socket_action`), so a
/// turn costs what happened, not how many transfers are open: `curl_multi_perform` and `curl_multi_poll` walk
/// every transfer and every socket on each turn, which with a thousand streams took most of a core.
///
/// Only the loop thread calls anything but ``wake()``, which any thread may call while the watcher is open.
final class SocketWatcher: @unchecked Sendable {
    /// What a ready socket can do, as libcurl's `CURL_CSELECT_*` flags.
    struct Readiness {
        let socket: Int32
        let flags: Int32
    }

    private let epoll: Int32
    private let wakeDescriptor: Int32
    private var events: [epoll_event]

    init() throws(HTTPClientError) {
        let epoll = epoll_create1(Int32(EPOLL_CLOEXEC))
        guard epoll >= 0 else { throw HTTPClientError(kind: .transport, message: "epoll_create1 failed (errno \(errno))") }
        let wake = eventfd(0, Int32(EFD_NONBLOCK | EFD_CLOEXEC))
        guard wake >= 0 else {
            Glibc.close(epoll)
            throw HTTPClientError(kind: .transport, message: "eventfd failed (errno \(errno))")
        }
        var event = epoll_event(events: EPOLLIN.rawValue, data: epoll_data_t(fd: wake))
        guard epoll_ctl(epoll, EPOLL_CTL_ADD, wake, &event) == 0 else {
            Glibc.close(wake)
            Glibc.close(epoll)
            throw HTTPClientError(kind: .transport, message: "epoll_ctl failed (errno \(errno))")
        }
        self.epoll = epoll
        self.wakeDescriptor = wake
        self.events = Array(repeating: epoll_event(), count: 256)
    }

    /// Watches `socket` for reading and/or writing, as libcurl's `CURL_POLL_*` value `what` says, or stops
    /// watching it (`CURL_POLL_REMOVE`).
    func update(_ socket: Int32, what: Int32, remove: Bool) {
        guard !remove else {
            // The socket may already be closed, which removed it from the set: nothing to report.
            var unused = epoll_event()
            _ = epoll_ctl(self.epoll, EPOLL_CTL_DEL, socket, &unused)
            return
        }
        var mask: UInt32 = 0
        if what & 1 != 0 { mask |= EPOLLIN.rawValue }
        if what & 2 != 0 { mask |= EPOLLOUT.rawValue }
        var event = epoll_event(events: mask, data: epoll_data_t(fd: socket))
        if epoll_ctl(self.epoll, EPOLL_CTL_MOD, socket, &event) != 0, errno == ENOENT {
            _ = epoll_ctl(self.epoll, EPOLL_CTL_ADD, socket, &event)
        }
    }

    /// Waits up to `milliseconds` for sockets to become ready or for ``wake()``, and returns the ready sockets.
    func wait(milliseconds: Int32) -> [Readiness] {
        let count = self.events.withUnsafeMutableBufferPointer { buffer in
            epoll_wait(self.epoll, buffer.baseAddress, Int32(buffer.count), milliseconds)
        }
        guard count > 0 else { return [] }
        var ready: [Readiness] = []
        ready.reserveCapacity(Int(count))
        for event in self.events[0..<Int(count)] {
            let socket = event.data.fd
            if socket == self.wakeDescriptor {
                var value: UInt64 = 0
                _ = read(self.wakeDescriptor, &value, MemoryLayout<UInt64>.size)
                continue
            }
            var flags: Int32 = 0
            if event.events & EPOLLIN.rawValue != 0 { flags |= 1 }
            if event.events & EPOLLOUT.rawValue != 0 { flags |= 2 }
            if event.events & (EPOLLERR.rawValue | EPOLLHUP.rawValue) != 0 { flags |= 4 }
            ready.append(Readiness(socket: socket, flags: flags))
        }
        return ready
    }

    /// Makes the current or next ``wait(milliseconds:)`` return at once.
    func wake() {
        var one: UInt64 = 1
        _ = write(self.wakeDescriptor, &one, MemoryLayout<UInt64>.size)
    }

    func close() {
        Glibc.close(self.wakeDescriptor)
        Glibc.close(self.epoll)
    }
}
