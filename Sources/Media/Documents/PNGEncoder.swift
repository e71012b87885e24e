import CPangoCairo
import CZlib
public import Drawing

/// Encodes Cairo image surfaces as PNG faster than Cairo's own writer, which always compresses at zlib's default level:
/// for a 1080×1920 share card that is most of the card's cost. Rows are filtered with PNG's "Up" filter (each byte minus
/// the one above: cheap, and strong on gradients and flat colour) and deflated at a low level.
public enum PNGEncoder {
    /// `surface` as an 8-bit PNG: RGB when it is opaque, RGBA (un-premultiplied) otherwise.
    /// - Parameter level: zlib's level, 1 (fastest) to 9 (smallest).
    public static func encode(_ surface: CairoSurface, level: Int32 = 3) throws -> [UInt8] {
        let opaque = cairo_image_surface_get_format(surface.pointer) == CAIRO_FORMAT_RGB24
        let channels = opaque ? 3 : 4
        let rowBytes = surface.width * channels
        let source = surface.pixels
        let stride = surface.stride
        var filtered = [UInt8](repeating: 0, count: (rowBytes + 1) * surface.height)
        // Two rows of converted pixels, the one above and this one, allocated here and freed on return.
        let above = UnsafeMutablePointer<UInt8>.allocate(capacity: rowBytes)
        defer { above.deallocate() }
        above.initialize(repeating: 0, count: rowBytes)
        let current = UnsafeMutablePointer<UInt8>.allocate(capacity: rowBytes)
        defer { current.deallocate() }
        filtered.withUnsafeMutableBufferPointer { output in
            // `output` holds every row and its filter byte; the loops stay inside it, and inside both rows.
            guard let base = output.baseAddress else { return }
            for y in 0..<surface.height {
                var pixel = source + y * stride
                var out = current
                for _ in 0..<surface.width {
                    // Cairo's pixels are native-endian ARGB: B, G, R, A in memory here, colour premultiplied by alpha.
                    let alpha = pixel[3]
                    if opaque || alpha == 255 {
                        out[0] = pixel[2]
                        out[1] = pixel[1]
                        out[2] = pixel[0]
                    } else if alpha == 0 {
                        out[0] = 0
                        out[1] = 0
                        out[2] = 0
                    } else {
                        out[0] = UInt8((Int(pixel[2]) * 255 + Int(alpha) / 2) / Int(alpha))
                        out[1] = UInt8((Int(pixel[1]) * 255 + Int(alpha) / 2) / Int(alpha))
                        out[2] = UInt8((Int(pixel[0]) * 255 + Int(alpha) / 2) / Int(alpha))
                    }
                    if !opaque { out[3] = alpha }
                    out += channels
                    pixel += 4
                }
                let line = base + y * (rowBytes + 1)
                line[0] = 2  // the "Up" filter
                for index in 0..<rowBytes { line[1 + index] = current[index] &- above[index] }
                above.update(from: current, count: rowBytes)
            }
        }
        var png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        var header: [UInt8] = []
        header.appendBigEndian(UInt32(surface.width))
        header.appendBigEndian(UInt32(surface.height))
        header += [8, opaque ? 2 : 6, 0, 0, 0]  // 8 bits, RGB or RGBA, deflate, adaptive filtering, no interlace
        appendChunk("IHDR", header, to: &png)
        appendChunk("IDAT", try Deflate.compress(filtered, level: level, framing: .zlib), to: &png)
        appendChunk("IEND", [], to: &png)
        return png
    }

    private static func appendChunk(_ type: String, _ data: [UInt8], to png: inout [UInt8]) {
        let typed = Array(type.utf8) + data
        png.appendBigEndian(UInt32(data.count))
        png += typed
        png.appendBigEndian(Deflate.crc32(typed))
    }
}

extension [UInt8] {
    fileprivate mutating func appendBigEndian(_ value: UInt32) {
        append(contentsOf: [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)])
    }
}
