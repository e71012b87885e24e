import Crypto
import Foundation
import KilnCore

/// Values derived from a session's secret with HMAC-SHA-256, each for one purpose: a value made for one (a CSRF
/// token) proves nothing for another (an artifact link), and none reveals the secret.
enum SessionSecret {
    /// The cookie that carries the secret.
    static let cookieName = "kiln_console"

    static func derive(_ secret: String, purpose: String) -> String {
        let key = SymmetricKey(data: Data(secret.utf8))
        return Data(HMAC<SHA256>.authenticationCode(for: Data(purpose.utf8), using: key)).hexString
    }

    /// Compares two derived values in constant time.
    static func matches(_ given: String, _ expected: String) -> Bool {
        let left = Array(given.utf8)
        let right = Array(expected.utf8)
        guard left.count == right.count else { return false }
        return zip(left, right).reduce(0) { $0 | ($1.0 ^ $1.1) } == 0
    }
}
