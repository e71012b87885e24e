extension String {
    /// The string as XML or HTML character data or attribute value: `&`, `<`, `>`, `"` and `'` become entity references,
    /// and the characters XML 1.0 forbids (C0 controls but tab, line feed and carriage return; U+FFFE and U+FFFF) are
    /// dropped, since no escape can carry them and one stray control character makes a whole DOCX or EPUB unreadable.
    public var xmlEscaped: String {
        var escaped = String.UnicodeScalarView()
        escaped.reserveCapacity(unicodeScalars.count)
        for scalar in unicodeScalars {
            switch scalar {
            case "&": escaped.append(contentsOf: "&amp;".unicodeScalars)
            case "<": escaped.append(contentsOf: "&lt;".unicodeScalars)
            case ">": escaped.append(contentsOf: "&gt;".unicodeScalars)
            case "\"": escaped.append(contentsOf: "&quot;".unicodeScalars)
            case "'": escaped.append(contentsOf: "&apos;".unicodeScalars)
            case "\t", "\n", "\r": escaped.append(scalar)
            case "\u{0}"..."\u{1F}", "\u{FFFE}", "\u{FFFF}": continue
            default: escaped.append(scalar)
            }
        }
        return String(escaped)
    }
}
