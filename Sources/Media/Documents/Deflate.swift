import CZlib

/// zlib's deflate in one call, for the zip archives (raw streams) and the PNG encoder (zlib streams).
enum Deflate {
    enum Framing {
        /// No header or checksum: zip entries carry their own.
        case raw
        /// A zlib header and Adler-32: what PNG's IDAT holds.
        case zlib

        var windowBits: Int32 { self == .raw ? -15 : 15 }
    }

    /// `bytes` compressed at `level` (1 fastest … 9 smallest) into a buffer of `deflateBound`'s size, which zlib
    /// guarantees is enough for `Z_FINISH` to complete.
    static func compress(_ bytes: [UInt8], level: Int32, framing: Framing, strategy: Int32 = Z_DEFAULT_STRATEGY) throws -> [UInt8] {
        var stream = z_stream()
        let initialized = deflateInit2_(
            &stream, level, Z_DEFLATED, framing.windowBits, 8, strategy, zlibVersion(), Int32(MemoryLayout<z_stream>.size))
        guard initialized == Z_OK else { throw DocumentError.renderingFailed("zlib deflateInit2 returned \(initialized)") }
        defer { deflateEnd(&stream) }

        let bound = Int(deflateBound(&stream, UInt(bytes.count)))
        var output = [UInt8](repeating: 0, count: bound)
        let (status, written) = bytes.withUnsafeBufferPointer { input in
            output.withUnsafeMutableBufferPointer { output in
                // zlib's `next_in` is non-const only for old API reasons: deflate never writes through it. Both
                // buffers outlive the call, and `avail_in`/`avail_out` bound what zlib touches.
                stream.next_in = UnsafeMutablePointer(mutating: input.baseAddress)
                stream.avail_in = UInt32(input.count)
                stream.next_out = output.baseAddress
                stream.avail_out = UInt32(clamping: output.count)
                let status = CZlib.deflate(&stream, Z_FINISH)
                return (status, output.count - Int(stream.avail_out))
            }
        }
        guard status == Z_STREAM_END else { throw DocumentError.renderingFailed("zlib deflate returned \(status)") }
        return Array(output[..<written])
    }

    /// The CRC-32 zip entries and PNG chunks are checked with.
    static func crc32(_ bytes: [UInt8], continuing previous: UInt32 = 0) -> UInt32 {
        bytes.withUnsafeBufferPointer { buffer in
            // zlib reads `count` bytes from the buffer during the call only.
            UInt32(truncatingIfNeeded: CZlib.crc32(UInt(previous), buffer.baseAddress, UInt32(buffer.count)))
        }
    }
}
