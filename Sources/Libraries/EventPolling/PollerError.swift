/// A system call of ``Poller`` failed; `errno` says why.
public struct PollerError: Error, Sendable, CustomStringConvertible {
    /// The call that failed (`epoll_create1`, `eventfd`, `epoll_ctl`).
    public let call: String
    public let errno: Int32

    public var description: String { "\(call) failed (errno \(errno))" }
}
