/// One keep-alive connection of a ``LoadClient``: the request it is answering, what of it is still to be written, and
/// the answer's bytes as they come. Used only on the client's loop thread.
final class LoadConnection {
    /// A request written, or being written, and the caller waiting for its answer.
    struct Outstanding {
        let answer: LoadClient.Answer
        let timeout: Duration
        let deadline: ContinuousClock.Instant
    }

    /// The socket, -1 while the connection is closed (it opens again for its next request).
    var descriptor: Int32 = -1
    /// The socket's connect has not completed yet.
    var isConnecting = false
    /// Whether the poller is told to report the socket writable: only while a connect or a write is pending.
    var watchesWrites = false
    /// Bytes of the outstanding request not written yet.
    var unsent: ArraySlice<UInt8> = []
    var outstanding: Outstanding?
    private var received: [UInt8] = []

    /// Adds bytes read from the socket.
    func receive(_ bytes: UnsafeRawBufferPointer) {
        received.append(contentsOf: bytes)
    }

    /// Forgets what was read and written: the socket was closed.
    func reset() {
        descriptor = -1
        isConnecting = false
        watchesWrites = false
        unsent = []
        received = []
    }

    /// The first whole answer among the bytes read, which it removes from them; nil until one has arrived. The answer
    /// must give its length in `Content-Length` (Kiln's do). - Returns: the answer and whether the server closes the
    /// connection after it.
    func takeResponse() throws(LoadClientError) -> (response: LoadResponse, closes: Bool)? {
        guard let headEnd = Self.headEnd(in: received) else { return nil }
        var status: Int?
        var length = 0
        var closes = false
        var lineStart = 0
        while lineStart < headEnd {
            var lineEnd = lineStart
            while lineEnd < headEnd, received[lineEnd] != UInt8(ascii: "\r") { lineEnd += 1 }
            let line = received[lineStart..<lineEnd]
            if lineStart == 0 {
                // "HTTP/1.1 202 Accepted"
                guard line.starts(with: "HTTP/1.".utf8), line.count >= 12 else { throw LoadClientError("the server's answer is not HTTP/1.1") }
                status = Self.integer(line.dropFirst(9).prefix(3))
            } else if let value = Self.value(of: "content-length", in: line) {
                guard let parsed = Self.integer(value) else { throw LoadClientError("a Content-Length is not a number") }
                length = parsed
            } else if Self.value(of: "transfer-encoding", in: line) != nil {
                throw LoadClientError("the server's answer has a Transfer-Encoding; this client reads Content-Length answers only")
            } else if let value = Self.value(of: "connection", in: line) {
                closes = String(decoding: value, as: UTF8.self).lowercased().contains("close")
            }
            lineStart = lineEnd + 2
        }
        guard let status else { throw LoadClientError("the server's answer has no status code") }
        let bodyStart = headEnd + 4
        guard received.count >= bodyStart + length else { return nil }
        let response = LoadResponse(status: status, body: Array(received[bodyStart..<(bodyStart + length)]))
        received.removeFirst(bodyStart + length)
        return (response, closes)
    }

    /// Where the blank line that ends the head starts: the first `\r\n\r\n`.
    private static func headEnd(in bytes: [UInt8]) -> Int? {
        var index = 3
        while index < bytes.count {
            if bytes[index] == UInt8(ascii: "\n"), bytes[index - 1] == UInt8(ascii: "\r"), bytes[index - 2] == UInt8(ascii: "\n"),
                bytes[index - 3] == UInt8(ascii: "\r")
            {
                return index - 3
            }
            index += 1
        }
        return nil
    }

    /// The value of the header line `line`, without the spaces around it, when its name is `name` (lowercase, compared
    /// ignoring case); nil for another header.
    private static func value(of name: StaticString, in line: ArraySlice<UInt8>) -> ArraySlice<UInt8>? {
        let count = name.utf8CodeUnitCount
        guard line.count > count, line[line.startIndex + count] == UInt8(ascii: ":") else { return nil }
        let matches = name.withUTF8Buffer { name in zip(line, name).allSatisfy { $0 | 0x20 == $1 || $0 == $1 } }
        guard matches else { return nil }
        let isSpace = { (byte: UInt8) in byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") }
        let value = line.dropFirst(count + 1).drop(while: isSpace)
        return value[..<(value.lastIndex { !isSpace($0) }.map { $0 + 1 } ?? value.startIndex)]
    }

    /// The decimal number the bytes spell, nil if they are not all digits (or none).
    private static func integer(_ digits: ArraySlice<UInt8>) -> Int? {
        guard !digits.isEmpty, digits.count <= 18 else { return nil }
        var value = 0
        for byte in digits {
            guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { return nil }
            value = value * 10 + Int(byte - UInt8(ascii: "0"))
        }
        return value
    }
}
