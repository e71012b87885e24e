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
