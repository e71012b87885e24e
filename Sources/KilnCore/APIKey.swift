/// Tenants' API keys: shown once at creation, stored only as a SHA-256 hash.
public enum APIKey {
    /// A new key: `kiln_` and 32 random bytes in hex.
    public static func generate() -> String {
        "kiln_" + RandomSecret.hex(byteCount: 32)
    }

    /// The stored form of a key.
    public static func hash(_ key: String) -> String {
        Digest.sha256Hex(key)
    }

    /// The first characters of a key, safe to show in listings.
    public static func displayPrefix(_ key: String) -> String {
        String(key.prefix(13))
    }
}

extension Sequence where Element == UInt8 {
    /// Lowercase hexadecimal.
    public var hexString: String {
        let digits = Array("0123456789abcdef".utf8)
        var bytes: [UInt8] = []
        bytes.reserveCapacity(underestimatedCount * 2)
        for byte in self {
            bytes.append(digits[Int(byte >> 4)])
            bytes.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
