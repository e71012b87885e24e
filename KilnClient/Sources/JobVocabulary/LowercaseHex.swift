/// Lowercase hex, Kiln's one spelling of bytes as text: ids, keys, digests. Reads a digit, or writes bytes as digits.
@usableFromInline
enum LowercaseHex {
    @usableFromInline static let digits = Array("0123456789abcdef".utf8)

    /// The value of a lowercase hex digit; nil for any other byte.
    static func value(of digit: UInt8) -> Int? {
        switch digit {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): Int(digit - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): Int(digit - UInt8(ascii: "a") + 10)
        default: nil
        }
    }

    /// Appends `byte`'s two digits to `text`.
    @inlinable
    static func append(_ byte: UInt8, to text: inout [UInt8]) {
        text.append(digits[Int(byte >> 4)])
        text.append(digits[Int(byte & 0x0F)])
    }

    /// 16 bytes as a UUID's canonical text: 8-4-4-4-12 lowercase hex digits.
    static func uuidText(_ bytes: [UInt8]) -> String {
        precondition(bytes.count == 16, "a UUID is 16 bytes")
        var text: [UInt8] = []
        text.reserveCapacity(36)
        for (index, byte) in bytes.enumerated() {
            if index == 4 || index == 6 || index == 8 || index == 10 { text.append(UInt8(ascii: "-")) }
            append(byte, to: &text)
        }
        return String(decoding: text, as: UTF8.self)
    }
}

extension Sequence where Element == UInt8 {
    /// Lowercase hexadecimal. Inlinable, so each caller's sequence (a digest, a byte array) is read without a generic
    /// iterator's calls per byte.
    @inlinable
    public var hexString: String {
        var text: [UInt8] = []
        text.reserveCapacity(underestimatedCount * 2)
        for byte in self { LowercaseHex.append(byte, to: &text) }
        return String(decoding: text, as: UTF8.self)
    }
}
