/// A minimal PNG encoder: 8-bit RGB, no filtering, the zlib stream made of stored (uncompressed) deflate
/// blocks. Decoders accept it like any PNG, and no compression library is needed.
enum PNGEncoder {
    static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    /// Encodes `width`×`height` pixels given row by row as RGB triples (`rgb.count == width * height * 3`).
    static func encode(width: Int, height: Int, rgb: [UInt8]) -> [UInt8] {
        precondition(rgb.count == width * height * 3, "pixel buffer does not match the size")
        var header: [UInt8] = []
        header.appendBigEndian(UInt32(width))
        header.appendBigEndian(UInt32(height))
        header += [8, 2, 0, 0, 0]  // depth 8, colour type RGB, deflate, adaptive filtering, no interlace

        // Each scanline starts with its filter type; 0 (None) keeps the data as given.
        let rowLength = width * 3
        var scanlines: [UInt8] = []
        scanlines.reserveCapacity((rowLength + 1) * height)
        for row in 0..<height {
            scanlines.append(0)
            scanlines += rgb[(row * rowLength)..<((row + 1) * rowLength)]
        }

        var png = signature
        png += chunk("IHDR", header)
        png += chunk("IDAT", zlibStored(scanlines))
        png += chunk("IEND", [])
        return png
    }

    /// A zlib stream (RFC 1950) of stored deflate blocks (RFC 1951 §3.2.4), at most 65,535 bytes each.
    static func zlibStored(_ data: [UInt8]) -> [UInt8] {
        var output: [UInt8] = [0x78, 0x01]  // deflate, 32 KiB window, no dictionary; 0x7801 is a multiple of 31
        output.reserveCapacity(data.count + data.count / 65_535 * 5 + 16)
        var start = 0
        repeat {
            let end = min(start + 65_535, data.count)
            let length = UInt16(end - start)
            output.append(end == data.count ? 1 : 0)  // BFINAL on the last block, BTYPE 00
            output += [UInt8(length & 0xFF), UInt8(length >> 8), UInt8(~length & 0xFF), UInt8(~length >> 8)]
            output += data[start..<end]
            start = end
        } while start < data.count
        output.appendBigEndian(adler32(data))
        return output
    }

    static func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
        var output: [UInt8] = []
        output.appendBigEndian(UInt32(data.count))
        let typed = Array(type.utf8) + data
        output += typed
        output.appendBigEndian(crc32(typed))
        return output
    }

    static func adler32(_ data: [UInt8]) -> UInt32 {
        var a: UInt32 = 1
        var b: UInt32 = 0
        // 5552 bytes is the most that can be summed before the 32-bit sums must be reduced.
        var index = 0
        while index < data.count {
            let end = min(index + 5552, data.count)
            for byte in data[index..<end] {
                a &+= UInt32(byte)
                b &+= a
            }
            a %= 65_521
            b %= 65_521
            index = end
        }
        return b << 16 | a
    }

    static func crc32(_ data: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in data {
            crc = crcTable[Int((crc ^ UInt32(byte)) & 0xFF)] ^ (crc >> 8)
        }
        return crc ^ 0xFFFF_FFFF
    }

    private static let crcTable: [UInt32] = (0..<256).map { index in
        var value = UInt32(index)
        for _ in 0..<8 {
            value = value & 1 == 1 ? 0xEDB8_8320 ^ (value >> 1) : value >> 1
        }
        return value
    }
}

extension Array where Element == UInt8 {
    mutating func appendBigEndian(_ value: UInt32) {
        self += [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
    }
}
