import Foundation

/// A loopback TCP port that nothing listens on, for an API node started on the side.
enum FreePort {
    /// Binds port 0 and reads back the port the kernel chose. Another process could take it before the API node binds
    /// it; the node then fails to start, and says so.
    static func find() throws -> Int {
        let socket = Foundation.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socket >= 0 else { throw LoadRunError("socket: \(String(cString: strerror(errno)))") }
        defer { close(socket) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        // The pointer casts view the sockaddr_in as the generic sockaddr that bind and getsockname take; both only
        // read or write `length` bytes of it, and it lives on this frame for the whole call.
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { generic in
                bind(socket, generic, length) == 0 && getsockname(socket, generic, &length) == 0
            }
        }
        guard bound else { throw LoadRunError("bind: \(String(cString: strerror(errno)))") }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}
