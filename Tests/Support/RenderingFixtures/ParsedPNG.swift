/// A PNG read back by the tests' own code: chunk framing, CRC-32 and the IHDR size.
public struct ParsedPNG {
    public var width: Int
    public var height: Int
    public var chunkTypes: [String]
    public var crcsValid: Bool

    public init?(_ bytes: [UInt8]) {
        guard bytes.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) else { return nil }
        func be32(_ offset: Int) -> UInt32 { bytes[offset..<offset + 4].reduce(0) { $0 << 8 | UInt32($1) } }
        var offset = 8
        var types: [String] = []
        var valid = true
        var width = 0
        var height = 0
        while offset + 12 <= bytes.count {
            let length = Int(be32(offset))
            guard offset + 12 + length <= bytes.count else { return nil }
            let typed = Array(bytes[(offset + 4)..<(offset + 8 + length)])
            let type = String(decoding: typed.prefix(4), as: UTF8.self)
            if type == "IHDR" {
                width = Int(be32(offset + 8))
                height = Int(be32(offset + 12))
            }
            valid = valid && Self.crc32(typed) == be32(offset + 8 + length)
            types.append(type)
            offset += 12 + length
        }
        self.width = width
        self.height = height
        self.chunkTypes = types
        self.crcsValid = valid && offset == bytes.count
    }

    /// Bitwise CRC-32 (no table), so it does not share code or shortcuts with the encoder under test.
    public static func crc32(_ data: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in data {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return ~crc
    }
}
