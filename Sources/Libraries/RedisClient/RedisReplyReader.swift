internal import CHiredis
import NIOCore

/// hiredis's RESP reader: bytes in as they arrive, whole replies out in order.
///
/// Used on one connection's event loop only. A protocol error is sticky: the connection must be closed.
final class RedisReplyReader {
    private let reader: UnsafeMutablePointer<redisReader>

    init() {
        // redisReaderCreate only fails when malloc does.
        guard let reader = redisReaderCreate() else { fatalError("hiredis could not allocate a reply reader") }
        self.reader = reader
    }

    deinit { redisReaderFree(reader) }

    /// Hands the readable bytes to the reader, which copies them.
    func feed(_ buffer: ByteBuffer) throws {
        let status = buffer.withUnsafeReadableBytes { bytes -> Int32 in
            guard let base = bytes.baseAddress else { return chiredis_ok() }
            return redisReaderFeed(reader, base.assumingMemoryBound(to: CChar.self), bytes.count)
        }
        guard status == chiredis_ok() else { throw RedisError.protocolViolation(errorText) }
    }

    /// The next whole reply, or nil until more bytes arrive.
    func next() throws -> RedisValue? {
        var reply: UnsafeMutablePointer<redisReply>?
        guard chiredis_reader_get_reply(reader, &reply) == chiredis_ok() else { throw RedisError.protocolViolation(errorText) }
        guard let reply else { return nil }
        defer { freeReplyObject(reply) }
        return Self.value(of: reply)
    }

    private var errorText: String {
        withUnsafeBytes(of: reader.pointee.errstr) { raw in String(decoding: raw.prefix(while: { $0 != 0 }), as: UTF8.self) }
    }

    private static func value(of reply: UnsafeMutablePointer<redisReply>) -> RedisValue {
        let node = reply.pointee
        switch node.type {
        case chiredis_reply_string():
            return .bulk(bytes(node.str, node.len))
        case chiredis_reply_status():
            return .status(String(decoding: bytes(node.str, node.len), as: UTF8.self))
        case chiredis_reply_error():
            return .error(String(decoding: bytes(node.str, node.len), as: UTF8.self))
        case chiredis_reply_integer():
            return .integer(node.integer)
        case chiredis_reply_array():
            guard let elements = node.element else { return .array([]) }
            return .array((0..<node.elements).map { index in elements[index].map { value(of: $0) } ?? .null })
        default:
            return .null
        }
    }

    private static func bytes(_ pointer: UnsafeMutablePointer<CChar>?, _ count: Int) -> [UInt8] {
        guard let pointer, count > 0 else { return [] }
        return Array(UnsafeRawBufferPointer(start: pointer, count: count))
    }
}
