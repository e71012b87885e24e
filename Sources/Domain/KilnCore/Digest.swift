public import Foundation
import Crypto

/// SHA-256 digests as lowercase hex, for API keys, idempotency bodies, artifacts and migrations.
public enum Digest {
    public static func sha256Hex(_ data: some DataProtocol) -> String {
        SHA256.hash(data: data).hexString
    }

    public static func sha256Hex(_ text: String) -> String {
        var text = text
        return text.withUTF8 { sha256Hex(UnsafeRawBufferPointer($0)) }
    }
}
