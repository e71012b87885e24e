/// Percent-encoding of object keys for request paths, as SigV4's canonical URI for S3 spells them.
enum ObjectKey {
    /// Encodes each `/`-separated segment of `key` byte by byte in UTF-8, leaving only RFC 3986's unreserved
    /// characters (`A-Z a-z 0-9 - . _ ~`) bare, and keeps the slashes. The path goes out exactly as libcurl signs
    /// it, and S3 computes the same form from the key it decodes, so both sides agree on the signature.
    static func encodedPath(_ key: String) -> String {
        encoded(key, keepingSlashes: true)
    }

    /// Encodes a query parameter's value as SigV4's canonical query string does: only the unreserved characters
    /// bare, slashes too encoded. libcurl 7.88.1 signs the query as it is sent, so it must be sent in this form.
    static func encodedQueryValue(_ value: String) -> String {
        encoded(value, keepingSlashes: false)
    }

    private static func encoded(_ key: String, keepingSlashes: Bool) -> String {
        var encoded = ""
        encoded.reserveCapacity(key.utf8.count)
        for byte in key.utf8 {
            if (keepingSlashes && byte == UInt8(ascii: "/")) || isUnreserved(byte) {
                encoded.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                let hex = Array("0123456789ABCDEF".unicodeScalars)
                encoded.unicodeScalars.append("%")
                encoded.unicodeScalars.append(hex[Int(byte >> 4)])
                encoded.unicodeScalars.append(hex[Int(byte & 0x0F)])
            }
        }
        return encoded
    }

    private static func isUnreserved(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"): true
        case UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"): true
        default: false
        }
    }
}
