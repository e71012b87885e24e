/// Secrets drawn from the system's random source: keys, tokens, session ids.
public enum RandomSecret {
    /// `byteCount` random bytes in lowercase hexadecimal.
    public static func hex(byteCount: Int) -> String {
        var generator = SystemRandomNumberGenerator()
        return (0..<byteCount).map { _ in UInt8.random(in: .min ... .max, using: &generator) }.hexString
    }
}
