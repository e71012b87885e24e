public import Foundation

/// Compact JWS/JWT serialisation for tests, so they can sign what a real issuer would, and what an attacker would.
public enum SignedToken {
    /// `header.payload.signature`, each base64url; `sign` turns the signing input into the signature's bytes.
    public static func make(header: [String: Any], payload: [String: Any], sign: (Data) throws -> [UInt8]) throws -> String {
        let input = try base64URL(json(header)) + "." + base64URL(json(payload))
        return input + "." + base64URL(try sign(Data(input.utf8)))
    }

    public static func base64URL(_ bytes: some Sequence<UInt8>) -> String {
        Data(bytes).base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    static func json(_ object: [String: Any]) throws -> Data {
        try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])
    }

    /// Milliseconds since 1970, as the App Store writes dates.
    public static func milliseconds(_ date: Date) -> Int64 {
        Int64((date.timeIntervalSince1970 * 1000).rounded())
    }

    /// Seconds since 1970, as JWT claims write dates.
    public static func seconds(_ date: Date) -> Int64 {
        Int64(date.timeIntervalSince1970.rounded(.down))
    }
}
