import Foundation
import Glibc
import Locking

/// Ports for the servers a test starts as processes of their own (Redis, PostgreSQL, `kiln api`).
///
/// They lie below the kernel's ephemeral range, so that nothing else can take one between the test choosing it and
/// its server binding it: neither a socket bound to port 0 (the suite's in-process servers) nor one of the hundreds of
/// connections the test process makes. A port is checked free when handed out, and never handed out twice in a process.
enum TestPorts {
    private static let handedOut = Locked<Set<Int>>([])

    /// A free port; with `bus`, one whose port + 10,000 (a Redis Cluster node's bus) is free too.
    static func reserve(bus: Bool = false) throws -> Int {
        let top = (ephemeralStart ?? 32_768) - (bus ? 10_000 : 0)
        for _ in 0..<1_000 {
            let port = Int.random(in: 10_000..<top)
            let ports = bus ? [port, port + 10_000] : [port]
            let taken = handedOut.withLock { handedOut in
                guard handedOut.isDisjoint(with: ports), ports.allSatisfy(isFree) else { return true }
                handedOut.formUnion(ports)
                return false
            }
            if !taken { return port }
        }
        throw TestFailure("no free port below \(top)")
    }

    /// The first port of the kernel's ephemeral range (`ip_local_port_range`).
    private static let ephemeralStart: Int? = {
        let range = try? String(contentsOfFile: "/proc/sys/net/ipv4/ip_local_port_range", encoding: .utf8)
        return range?.split(whereSeparator: \.isWhitespace).first.flatMap { Int($0) }
    }()

    /// Whether a socket can bind `port` on every address.
    private static func isFree(_ port: Int) -> Bool {
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socket >= 0 else { return false }
        defer { close(socket) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = INADDR_ANY
        return withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0 }
        }
    }
}
