import Foundation
import Glibc

/// A network namespace of the test's own (`ip netns`): a host with interfaces, addresses, routes and ports of its own.
/// Programs run in it through `ip netns exec`; the test's own sockets are made in it by entering it on the calling
/// thread for the moment it takes to create one (a socket stays in the namespace it was made in).
struct NetworkNamespace: Sendable, CustomStringConvertible {
    let name: String

    var description: String { name }

    /// `command` as it runs in this namespace.
    func command(_ command: [String]) -> [String] { ["ip", "netns", "exec", name] + command }

    /// A TCP socket in this namespace, or in the test's own when `namespace` is nil.
    static func tcpSocket(in namespace: NetworkNamespace?) throws -> Int32 {
        let make = { socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0) }
        let descriptor = try namespace?.entered(make) ?? make()
        guard descriptor >= 0 else { throw TestFailure("socket() in \(namespace?.name ?? "the test's namespace"): errno \(errno)") }
        return descriptor
    }

    /// Runs `body` with this thread in this namespace, then puts the thread back in its own. `body` must not suspend.
    private func entered(_ body: () -> Int32) throws -> Int32 {
        let target = open("/run/netns/\(name)", O_RDONLY | O_CLOEXEC)
        guard target >= 0 else { throw TestFailure("cannot open the namespace \(name): errno \(errno)") }
        defer { close(target) }
        let own = open("/proc/thread-self/ns/net", O_RDONLY | O_CLOEXEC)
        guard own >= 0 else { throw TestFailure("cannot open this thread's network namespace: errno \(errno)") }
        defer { close(own) }
        guard Self.setns(target, Self.newNetworkNamespace) == 0 else { throw TestFailure("setns into \(name): errno \(errno)") }
        let result = body()
        let error = errno
        // A thread of the test's left in another namespace would send what runs on it next to the wrong host.
        guard Self.setns(own, Self.newNetworkNamespace) == 0 else { fatalError("cannot return this thread to its network namespace") }
        errno = error
        return result
    }

    /// `CLONE_NEWNET`, and `setns(2)`: glibc declares both only for `_GNU_SOURCE`, which Swift's Glibc module does not
    /// define.
    private static let newNetworkNamespace: Int32 = 0x4000_0000
    private static let setns: @convention(c) (Int32, Int32) -> Int32 = {
        guard let symbol = dlsym(nil, "setns") else { fatalError("glibc has no setns") }
        return unsafeBitCast(symbol, to: (@convention(c) (Int32, Int32) -> Int32).self)
    }()
}
