import Foundation
import Glibc

/// A plain TCP connection to a local port, for what an HTTP client never sends: half a request, or a body shorter than
/// it declared.
final class RawConnection {
    private let descriptor: Int32

    /// - Parameter receiveBuffer: the socket's receive buffer in bytes, before it connects (a small one makes a client
    ///   that reads slowly); the system's default when nil.
    init(port: Int, receiveBuffer: Int32? = nil) throws {
        descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw TestFailure("socket: errno \(errno)") }
        if var size = receiveBuffer {
            guard setsockopt(descriptor, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size)) == 0 else {
                close(descriptor)
                throw TestFailure("setsockopt: errno \(errno)")
            }
        }
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
        String(decoding: try await bytesUntilClosed(within: limit), as: UTF8.self)
    }

    /// ``readUntilClosed(within:)``'s bytes.
    func bytesUntilClosed(within limit: Duration = .seconds(60)) async throws -> [UInt8] {
        try await read(within: limit) { _, closed in closed }
    }

    /// What the server sent until it holds `marker`, the connection left open; throws when it closed first, or sent no
    /// `marker` within `limit`.
    func read(until marker: String, within limit: Duration = .seconds(60)) async throws -> String {
        String(
            decoding: try await read(within: limit) { received, closed in
                let text = String(decoding: received, as: UTF8.self)
                if text.contains(marker) { return true }
                if closed { throw TestFailure("the server closed the connection before it sent \(marker): \(text)") }
                return false
            }, as: UTF8.self)
    }

    private func read(within limit: Duration, until done: ([UInt8], Bool) throws -> Bool) async throws -> [UInt8] {
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        let deadline = ContinuousClock.now + limit
        while ContinuousClock.now < deadline {
            let count = recv(descriptor, &buffer, buffer.count, 0)
            if count >= 0 {
                received += buffer[0..<count]
                if try done(received, count == 0) { return received }
            } else if errno == EAGAIN || errno == EWOULDBLOCK {
                try await Task.sleep(for: .milliseconds(20))
            } else {
                throw TestFailure("recv: errno \(errno)")
            }
        }
        throw TestFailure("the server kept the connection open for \(limit); it sent \(String(decoding: received, as: UTF8.self))")
    }
}

/// An HTTP/1.1 response as it came over a ``RawConnection``: its head, and its body with any chunked framing undone.
struct RawResponse {
    let head: String
    let body: [UInt8]

    init(_ bytes: [UInt8]) throws {
        let separator = Array("\r\n\r\n".utf8)
        guard let end = bytes.indices.first(where: { bytes[$0...].starts(with: separator) }) else { throw TestFailure("no response head") }
        head = String(decoding: bytes[..<end], as: UTF8.self)
        let rest = Array(bytes[(end + separator.count)...])
        body = head.lowercased().contains("transfer-encoding: chunked") ? Self.dechunked(rest) : rest
    }

    /// The chunks' data laid end to end, up to the last chunk or as far as they came whole.
    private static func dechunked(_ bytes: [UInt8]) -> [UInt8] {
        var body: [UInt8] = []
        var index = 0
        while let lineEnd = bytes[index...].firstIndex(of: UInt8(ascii: "\r")), lineEnd + 1 < bytes.count,
            let size = Int(String(decoding: bytes[index..<lineEnd], as: UTF8.self), radix: 16), size > 0, lineEnd + 2 + size <= bytes.count
        {
            body += bytes[(lineEnd + 2)..<(lineEnd + 2 + size)]
            index = lineEnd + 2 + size + 2
            guard index < bytes.count else { break }
        }
        return body
    }
}
