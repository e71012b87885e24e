import NIOCore

/// Writes commands in RESP (`*<count>\r\n` then `$<length>\r\n<bytes>\r\n` per argument), the form Redis reads.
extension ByteBuffer {
    /// Writes one command whose arguments are `parts`, one after another: a script call is its `EVALSHA` head, its
    /// keys and its arguments, written without joining them first.
    ///
    /// The whole command goes into the buffer's memory in one pass, not each count, length and line end through
    /// `ByteBuffer`'s own methods, each of which checks capacity and exclusive access: an enqueue has 45 arguments.
    mutating func writeRedisCommand(_ parts: [String]...) throws {
        guard let name = parts.first(where: { !$0.isEmpty })?.first, !name.isEmpty else {
            throw RedisError.protocolViolation("a command needs a name")
        }
        // At most: a marker, 20 digits and a line end for each header, and each argument with its line end.
        var capacity = 23
        for part in parts {
            for argument in part { capacity += 25 + argument.utf8.count }
        }
        writeWithUnsafeMutableBytes(minimumWritableBytes: capacity) { memory in
            var writer = RESPWriter(memory: memory)
            writer.header(UInt8(ascii: "*"), parts.reduce(0) { $0 + $1.count })
            for part in parts {
                for argument in part {
                    writer.header(UInt8(ascii: "$"), argument.utf8.count)
                    writer.bytes(argument.utf8)
                    writer.lineEnd()
                }
            }
            return writer.written
        }
    }
}

/// Writes RESP into memory that is known to be large enough.
private struct RESPWriter {
    let memory: UnsafeMutableRawBufferPointer
    var written = 0

    mutating func header(_ marker: UInt8, _ count: Int) {
        memory[written] = marker
        written += 1
        // The digits, last first, then turned around in place.
        let start = written
        var rest = count
        repeat {
            memory[written] = UInt8(ascii: "0") + UInt8(rest % 10)
            written += 1
            rest /= 10
        } while rest > 0
        var low = start
        var high = written - 1
        while low < high {
            memory.swapAt(low, high)
            low += 1
            high -= 1
        }
        lineEnd()
    }

    mutating func bytes(_ utf8: String.UTF8View) {
        UnsafeMutableRawBufferPointer(rebasing: memory[written...]).copyBytes(from: utf8)
        written += utf8.count
    }

    mutating func lineEnd() {
        memory[written] = 0x0D
        memory[written + 1] = 0x0A
        written += 2
    }
}
