/// Why a ``LoadClient`` request got no answer.
public struct LoadClientError: Error, Sendable, CustomStringConvertible {
    public let description: String

    init(_ description: String) {
        self.description = description
    }

    /// A failed system call, with its `errno`.
    static func call(_ name: String, errno code: Int32) -> LoadClientError {
        LoadClientError("\(name) failed (errno \(code))")
    }
}
