/// U+0000 is valid in JSON text (`\u0000`) but PostgreSQL's `text` and `jsonb` cannot hold it: a document holding one
/// can be refused at the door (``pathOfNUL(under:)``) or stored with U+FFFD in its place (``replacingNUL()``).
extension JSONValue {
    /// The path of the first string or key holding U+0000 (`input.notes[2]`), starting at `root`; nil when none does.
    public func pathOfNUL(under root: String) -> String? {
        switch self {
        case .string(let text): text.contains("\0") ? root : nil
        case .array(let elements):
            elements.indices.lazy.compactMap { elements[$0].pathOfNUL(under: "\(root)[\($0)]") }.first
        case .object(let fields):
            fields.keys.sorted().lazy.compactMap { key in
                key.contains("\0") ? root : fields[key]?.pathOfNUL(under: "\(root).\(key)")
            }.first
        case .null, .bool, .number: nil
        }
    }

    /// This document with every U+0000 in its strings and keys replaced by U+FFFD.
    public func replacingNUL() -> JSONValue {
        switch self {
        case .string(let text): .string(text.replacingNUL())
        case .array(let elements): .array(elements.map { $0.replacingNUL() })
        case .object(let fields):
            .object(Dictionary(fields.map { ($0.key.replacingNUL(), $0.value.replacingNUL()) }, uniquingKeysWith: { first, _ in first }))
        case .null, .bool, .number: self
        }
    }
}

extension String {
    /// This text with every U+0000 replaced by U+FFFD, the replacement character.
    public func replacingNUL() -> String {
        // Looked for as a byte: a search by characters costs far more, on every record a worker writes.
        guard utf8.contains(0) else { return self }
        return String(String.UnicodeScalarView(unicodeScalars.map { $0 == "\0" ? "\u{FFFD}" : $0 }))
    }

    /// Whether this JSON text holds the escape `\u0000` (U+0000, which JSON text can only write so), found as bytes.
    public var containsEscapedNUL: Bool {
        let escape = Self.escapedNUL
        var matched = 0
        for byte in utf8 {
            if byte == escape[matched] {
                matched += 1
                if matched == escape.count { return true }
            } else {
                matched = byte == escape[0] ? 1 : 0
            }
        }
        return false
    }

    private static let escapedNUL = Array(#"\u0000"#.utf8)
}
