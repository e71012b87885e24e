public import Foundation
import Crypto

/// SHA-256 digests as lowercase hex, for API keys, idempotency bodies, artifacts and migrations.
public enum Digest {
    public static func sha256Hex(_ data: some DataProtocol) -> String {
        SHA256.hash(data: data).hexString
    }

    public static func sha256Hex(_ text: String) -> String {
        sha256Hex(Data(text.utf8))
    }
}
