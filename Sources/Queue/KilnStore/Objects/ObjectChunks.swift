import Locking

/// An object's bytes, a piece at a time: an answer streams them instead of holding the whole object (a video of tens
/// of megabytes) in memory.
public struct ObjectChunks: AsyncSequence, Sendable {
    public typealias Element = [UInt8]

    private let next: @Sendable () async throws -> [UInt8]?

    /// `next` gives the following piece, or nil at the end; it is called again only after its last call returned.
    init(_ next: @escaping @Sendable () async throws -> [UInt8]?) {
        self.next = next
    }

    /// All of `bytes` in one piece, for a backend that reads an object whole.
    init(whole bytes: [UInt8]) {
        let pending = PendingBytes(bytes)
        self.init { pending.take() }
    }

    public struct AsyncIterator: AsyncIteratorProtocol {
        let next: @Sendable () async throws -> [UInt8]?

        public mutating func next() async throws -> [UInt8]? {
            try await next()
        }
    }

    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(next: next)
    }
}

/// Bytes handed out once.
private final class PendingBytes: Sendable {
    private let bytes: Locked<[UInt8]?>

    init(_ bytes: [UInt8]) {
        self.bytes = Locked(bytes)
    }

    func take() -> [UInt8]? {
        bytes.withLock { bytes in
            defer { bytes = nil }
            return bytes
        }
    }
}
