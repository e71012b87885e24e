/// The text form of one-dimensional arrays: `{"a","b \"c\"",NULL}`.
enum PostgresArrayLiteral {
    /// Quotes every element, so commas, braces, spaces, quotes, backslashes and the word `NULL` stay data.
    /// Works on UTF-8 bytes: `"` and `\` are ASCII, so they never occur inside a multi-byte character.
    static func encode(_ elements: [String?]) -> String {
        let quote = UInt8(ascii: "\""), backslash = UInt8(ascii: "\\")
        var bytes: [UInt8] = [UInt8(ascii: "{")]
        bytes.reserveCapacity(elements.reduce(2) { $0 + ($1?.utf8.count ?? 4) + 3 })
        for (index, element) in elements.enumerated() {
            if index > 0 { bytes.append(UInt8(ascii: ",")) }
            guard let element else {
                bytes.append(contentsOf: "NULL".utf8)
                continue
            }
            bytes.append(quote)
            let utf8 = element.utf8
            if utf8.contains(where: { $0 == quote || $0 == backslash }) {
                for byte in utf8 {
                    if byte == quote || byte == backslash { bytes.append(backslash) }
                    bytes.append(byte)
                }
            } else {
                // Most elements (ids, names, times) hold neither: copied in one go.
                bytes.append(contentsOf: utf8)
            }
            bytes.append(quote)
        }
        bytes.append(UInt8(ascii: "}"))
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Reads the server's output of a one-dimensional array; nil for other shapes (several dimensions, bounds
    /// other than 1, malformed text).
    static func decode(_ text: String) -> [String?]? {
        let bytes = Array(text.utf8)
        guard bytes.first == UInt8(ascii: "{"), bytes.last == UInt8(ascii: "}") else { return nil }
        if bytes.count == 2 { return [] }
        var elements: [String?] = []
        var index = 1
        while index < bytes.count {
            var element: [UInt8] = []
            var quoted = false
            if bytes[index] == UInt8(ascii: "\"") {
                quoted = true
                index += 1
                while index < bytes.count, bytes[index] != UInt8(ascii: "\"") {
                    if bytes[index] == UInt8(ascii: "\\") { index += 1 }
                    guard index < bytes.count else { return nil }
                    element.append(bytes[index])
                    index += 1
                }
                index += 1
            } else {
                while index < bytes.count, bytes[index] != UInt8(ascii: ","), bytes[index] != UInt8(ascii: "}") {
                    // A nested array or an escape outside quotes: not an array of one dimension as the server prints it.
                    guard bytes[index] != UInt8(ascii: "{"), bytes[index] != UInt8(ascii: "\\"), bytes[index] != UInt8(ascii: "\"")
                    else { return nil }
                    element.append(bytes[index])
                    index += 1
                }
                guard !element.isEmpty else { return nil }
            }
            guard index < bytes.count else { return nil }
            let unquotedNull = !quoted && element == Array("NULL".utf8)
            elements.append(unquotedNull ? nil : String(decoding: element, as: UTF8.self))
            if bytes[index] == UInt8(ascii: "}") {
                return index == bytes.count - 1 ? elements : nil
            }
            index += 1
        }
        return nil
    }
}
