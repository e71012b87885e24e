import Glibc

/// A program that could not be started, with the reason.
public struct SpawnError: Error, CustomStringConvertible {
    public let description: String

    init(_ description: String) {
        self.description = description
    }

    /// A failed system call, with `errno` read at once, before another call overwrites it.
    static func system(_ call: String) -> Self {
        let code = errno
        return SpawnError("\(call) failed: \(String(cString: strerror(code))) (errno \(code))")
    }
}
