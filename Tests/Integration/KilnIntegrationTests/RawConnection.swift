import Foundation
import Glibc

/// A plain TCP connection to a local port, for what an HTTP client never sends: half a request, or a body shorter than
/// it declared.
final class RawConnection {
    private let descriptor: Int32

    init(port: Int) throws {
        descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw TestFailure("socket: errno \(errno)") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0, fcntl(descriptor, F_SETFL, O_NONBLOCK) == 0 else {
            close(descriptor)
            throw TestFailure("connect to \(port): errno \(errno)")
        }
    }

    deinit { close(descriptor) }

    func send(_ text: String) throws {
        let bytes = Array(text.utf8)
        guard Glibc.send(descriptor, bytes, bytes.count, Int32(MSG_NOSIGNAL)) == bytes.count else { throw TestFailure("send: errno \(errno)") }
    }

    /// What the server sent until it closed the connection; throws when it is still open after `limit`, which only
    /// bounds a test whose server never closes it.
    func readUntilClosed(within limit: Duration = .seconds(60)) async throws -> String {
        try await read(within: limit) { _, closed in closed }
    }

    /// What the server sent until it holds `marker`, the connection left open; throws when it closed first, or sent no
    /// `marker` within `limit`.
    func read(until marker: String, within limit: Duration = .seconds(60)) async throws -> String {
        try await read(within: limit) { received, closed in
            if received.contains(marker) { return true }
            if closed { throw TestFailure("the server closed the connection before it sent \(marker): \(received)") }
            return false
        }
    }

    private func read(within limit: Duration, until done: (String, Bool) throws -> Bool) async throws -> String {
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        let deadline = ContinuousClock.now + limit
        while ContinuousClock.now < deadline {
            let count = recv(descriptor, &buffer, buffer.count, 0)
            if count >= 0 {
                received += buffer[0..<count]
                if try done(String(decoding: received, as: UTF8.self), count == 0) { return String(decoding: received, as: UTF8.self) }
            } else if errno == EAGAIN || errno == EWOULDBLOCK {
                try await Task.sleep(for: .milliseconds(20))
            } else {
                throw TestFailure("recv: errno \(errno)")
            }
        }
        throw TestFailure("the server kept the connection open for \(limit); it sent \(String(decoding: received, as: UTF8.self))")
    }
}
