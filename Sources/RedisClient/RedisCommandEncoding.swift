import NIOCore

/// Writes commands in RESP (`*<count>\r\n` then `$<length>\r\n<bytes>\r\n` per argument), the form Redis reads.
extension ByteBuffer {
    /// Writes one command whose arguments are `parts`, one after another: a script call is its `EVALSHA` head, its
    /// keys and its arguments, written without joining them first.
    mutating func writeRedisCommand(_ parts: [String]...) throws {
        guard let name = parts.first(where: { !$0.isEmpty })?.first, !name.isEmpty else {
            throw RedisError.protocolViolation("a command needs a name")
        }
        writeRESPHeader(UInt8(ascii: "*"), parts.reduce(0) { $0 + $1.count })
        for part in parts {
            for argument in part {
                writeRESPHeader(UInt8(ascii: "$"), argument.utf8.count)
                writeString(argument)
                writeRESPLineEnd()
            }
        }
    }

    private mutating func writeRESPHeader(_ marker: UInt8, _ count: Int) {
        writeInteger(marker)
        // Most counts and lengths have one or two digits: written as bytes, without making a string of them.
        switch count {
        case 0..<10:
            writeInteger(UInt8(ascii: "0") + UInt8(count))
        case 10..<100:
            writeInteger(UInt8(ascii: "0") + UInt8(count / 10))
            writeInteger(UInt8(ascii: "0") + UInt8(count % 10))
        default:
            writeString(String(count))
        }
        writeRESPLineEnd()
    }

    private mutating func writeRESPLineEnd() {
        writeInteger(UInt16(0x0D0A))
    }
}
