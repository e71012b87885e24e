/// A frame in the encoder's format: planar Y, then U and V at half resolution (4:2:0), BT.709 limited range — the
/// matrix the MP4 is tagged with, so a player shows the colours that were drawn.
///
/// Converted from BGRA a band of rows at a time: when only the message being typed changed, only its rows are
/// converted again (a twentieth of the frame's cost, which would otherwise rival the encoder's).
public struct I420Frame: ~Copyable {
    public let width: Int
    public let height: Int
    /// Y plane, U plane, V plane, back to back.
    public let bytes: UnsafeMutableRawBufferPointer

    /// An even `width` and `height`.
    public init(width: Int, height: Int) {
        precondition(width % 2 == 0 && height % 2 == 0, "4:2:0 needs even sides")
        self.width = width
        self.height = height
        bytes = .allocate(byteCount: width * height * 3 / 2, alignment: 64)
        bytes.initializeMemory(as: UInt8.self, repeating: 0)
    }

    deinit { bytes.deallocate() }

    /// Converts `rows` of a BGRA picture (`stride` bytes a row), widened to even rows.
    public func convert(from bgra: UnsafePointer<UInt8>, stride: Int, rows: Range<Int>) {
        guard !rows.isEmpty else { return }
        let first = rows.lowerBound & ~1
        let end = min(height, (rows.upperBound + 1) & ~1)
        let luma = bytes.baseAddress!.assumingMemoryBound(to: UInt8.self)
        let chromaWidth = width / 2
        let blue = luma + width * height
        let red = blue + chromaWidth * (height / 2)
        // 16-bit fixed point: 219/255 of the luma weights 0.2126, 0.7152, 0.0722 (see luma); 224/255 of the chroma
        // ones, applied to the sum of four pixels.
        for y in Swift.stride(from: first, to: end, by: 2) {
            let top = bgra + y * stride
            let bottom = top + stride
            let lumaTop = luma + y * width
            let lumaBottom = lumaTop + width
            let chromaRow = (y / 2) * chromaWidth
            for x in 0..<chromaWidth {
                let topLeft = top + 8 * x, topRight = topLeft + 4, bottomLeft = bottom + 8 * x, bottomRight = bottomLeft + 4
                lumaTop[2 * x] = Self.luma(topLeft)
                lumaTop[2 * x + 1] = Self.luma(topRight)
                lumaBottom[2 * x] = Self.luma(bottomLeft)
                lumaBottom[2 * x + 1] = Self.luma(bottomRight)
                let sumB = Int(topLeft[0]) + Int(topRight[0]) + Int(bottomLeft[0]) + Int(bottomRight[0])
                let sumG = Int(topLeft[1]) + Int(topRight[1]) + Int(bottomLeft[1]) + Int(bottomRight[1])
                let sumR = Int(topLeft[2]) + Int(topRight[2]) + Int(bottomLeft[2]) + Int(bottomRight[2])
                blue[chromaRow + x] = UInt8(truncatingIfNeeded: ((-6596 * sumR - 22189 * sumG + 28785 * sumB + 131072) >> 18) + 128)
                red[chromaRow + x] = UInt8(truncatingIfNeeded: ((28785 * sumR - 26145 * sumG - 2640 * sumB + 131072) >> 18) + 128)
            }
        }
    }

    @inline(__always)
    private static func luma(_ pixel: UnsafePointer<UInt8>) -> UInt8 {
        UInt8(truncatingIfNeeded: ((11966 * Int(pixel[2]) + 40254 * Int(pixel[1]) + 4064 * Int(pixel[0]) + 32768) >> 16) + 16)
    }
}
