/// Where a Redis Cluster keeps a key: one of 16,384 slots, by CRC16 (XMODEM) of the key's hash tag — what lies between
/// its first `{` and the next `}`, when that is not empty — or else of the whole key, exactly as Redis works it out.
public enum RedisKeySlot {
    /// How many slots a cluster has.
    public static let count = 16_384

    /// The slot of `key`.
    public static func of(_ key: String) -> Int {
        slot(ofHashed: hashedPart(of: key))
    }

    /// The slot of a `SCAN … MATCH` pattern's keys: that of its hash tag, nil when it has none or its tag holds a glob
    /// character (then its keys may lie in any slot).
    static func of(pattern: String) -> Int? {
        guard let tag = hashTag(of: pattern) else { return nil }
        let glob: Set<UInt8> = [UInt8(ascii: "*"), UInt8(ascii: "?"), UInt8(ascii: "["), UInt8(ascii: "\\")]
        guard !tag.contains(where: glob.contains) else { return nil }
        return slot(ofHashed: tag)
    }

    static func slot(ofHashed bytes: some Sequence<UInt8>) -> Int {
        var crc: UInt16 = 0
        for byte in bytes { crc = (crc << 8) ^ table[Int((crc >> 8) ^ UInt16(byte))] }
        return Int(crc) & (count - 1)
    }

    /// The bytes Redis hashes: the hash tag when there is one, the whole key otherwise.
    private static func hashedPart(of key: String) -> Substring.UTF8View {
        hashTag(of: key) ?? Substring(key).utf8
    }

    private static func hashTag(of key: String) -> Substring.UTF8View? {
        let bytes = Substring(key).utf8
        guard let open = bytes.firstIndex(of: UInt8(ascii: "{")) else { return nil }
        let rest = bytes[bytes.index(after: open)...]
        guard let close = rest.firstIndex(of: UInt8(ascii: "}")), close != rest.startIndex else { return nil }
        return rest[..<close]
    }

    /// CRC16-CCITT (XMODEM: polynomial 0x1021, no reflection, initial value 0), a byte at a time.
    private static let table: [UInt16] = (0..<256).map { byte in
        var crc = UInt16(byte) << 8
        for _ in 0..<8 { crc = crc & 0x8000 != 0 ? (crc << 1) ^ 0x1021 : crc << 1 }
        return crc
    }
}
