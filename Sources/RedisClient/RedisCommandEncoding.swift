import NIOCore

/// Writes commands in RESP (`*<count>\r\n` then `$<length>\r\n<bytes>\r\n` per argument), the form Redis reads.
extension ByteBuffer {
    mutating func writeRedisCommand(_ arguments: some Collection<String>) throws {
        guard arguments.first?.isEmpty == false else { throw RedisError.protocolViolation("a command needs a name") }
        writeRESPHeader("*", arguments.count)
        for argument in arguments {
            writeRESPHeader("$", argument.utf8.count)
            writeString(argument)
            writeRESPLineEnd()
        }
    }

    private mutating func writeRESPHeader(_ marker: Unicode.Scalar, _ count: Int) {
        writeInteger(UInt8(ascii: marker))
        writeString(String(count))
        writeRESPLineEnd()
    }

    private mutating func writeRESPLineEnd() {
        writeInteger(UInt16(0x0D0A))
    }
}
