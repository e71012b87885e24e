public import Foundation

extension FileHandle {
    /// The lines read from this handle until it ends, read on a thread of their own: a blocking read must not hold one of
    /// the few threads of Swift's cooperative pool.
    public func readLines() -> AsyncStream<String> {
        let (lines, continuation) = AsyncStream.makeStream(of: String.self)
        let thread = Thread {
            var pending: [UInt8] = []
            while case let data = self.availableData, !data.isEmpty {
                pending.append(contentsOf: data)
                while let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
                    continuation.yield(String(decoding: pending[..<newline], as: UTF8.self))
                    pending.removeSubrange(...newline)
                }
            }
            continuation.finish()
        }
        thread.start()
        return lines
    }
}
