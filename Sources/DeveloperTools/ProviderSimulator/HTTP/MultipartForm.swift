/// A `multipart/form-data` body (RFC 7578), as OpenAI's image edits receive it.
struct MultipartForm: Sendable, Equatable {
    /// A body that is not multipart, or whose boundary never closes.
    struct ParseError: Error, Equatable, CustomStringConvertible {
        let description: String
    }

    struct Part: Sendable, Equatable {
        /// The form field name, from `Content-Disposition: form-data; name="…"`.
        var name: String
        /// The file name, for file parts.
        var filename: String?
        var contentType: String?
        var body: [UInt8]

        var text: String { String(decoding: self.body, as: UTF8.self) }
    }

    var parts: [Part]

    /// The boundary parameter of a `multipart/form-data` content type.
    static func boundary(contentType: String) -> String? {
        let fields = contentType.split(separator: ";").map { $0.trimmingSpaces() }
        guard fields.first?.lowercased() == "multipart/form-data" else { return nil }
        for field in fields.dropFirst() where field.lowercased().hasPrefix("boundary=") {
            var value = String(field.dropFirst("boundary=".count))
            if value.hasPrefix("\""), value.hasSuffix("\""), value.count >= 2 { value = String(value.dropFirst().dropLast()) }
            return value.isEmpty ? nil : value
        }
        return nil
    }

    init(parts: [Part]) {
        self.parts = parts
    }

    init(body: [UInt8], boundary: String) throws(ParseError) {
        let delimiter = Array("--\(boundary)".utf8)
        let separator = Array("\r\n".utf8) + delimiter
        guard var position = Self.find(delimiter, in: body, from: 0) else { throw ParseError(description: "no boundary in the body") }
        position += delimiter.count
        var parts: [Part] = []
        while true {
            if body[position...].starts(with: Array("--".utf8)) { break }
            guard body[position...].starts(with: Array("\r\n".utf8)) else { throw ParseError(description: "boundary not followed by CRLF") }
            position += 2
            guard let headerEnd = Self.find(Array("\r\n\r\n".utf8), in: body, from: position) else {
                throw ParseError(description: "part headers do not end")
            }
            let headers = String(decoding: body[position..<headerEnd], as: UTF8.self)
            let contentStart = headerEnd + 4
            guard let contentEnd = Self.find(separator, in: body, from: contentStart) else {
                throw ParseError(description: "the closing boundary is missing")
            }
            parts.append(try Self.part(headers: headers, body: Array(body[contentStart..<contentEnd])))
            position = contentEnd + separator.count
        }
        self.parts = parts
    }

    private static func part(headers: String, body: [UInt8]) throws(ParseError) -> Part {
        var name: String?
        var filename: String?
        var contentType: String?
        for line in headers.split(separator: "\r\n") {
            guard let colon = line.firstIndex(of: ":") else { continue }
            let field = line[..<colon].lowercased()
            let value = line[line.index(after: colon)...].trimmingSpaces()
            if field == "content-type" { contentType = value }
            guard field == "content-disposition" else { continue }
            for parameter in value.split(separator: ";").dropFirst() {
                let pair = parameter.split(separator: "=", maxSplits: 1).map { $0.trimmingSpaces() }
                guard pair.count == 2 else { continue }
                let unquoted =
                    pair[1].hasPrefix("\"") && pair[1].hasSuffix("\"") && pair[1].count >= 2 ? String(pair[1].dropFirst().dropLast()) : pair[1]
                switch pair[0].lowercased() {
                case "name": name = unquoted
                case "filename": filename = unquoted
                default: break
                }
            }
        }
        guard let name else { throw ParseError(description: "a part has no name") }
        return Part(name: name, filename: filename, contentType: contentType, body: body)
    }

    private static func find(_ needle: [UInt8], in haystack: [UInt8], from start: Int) -> Int? {
        guard !needle.isEmpty, haystack.count >= needle.count, start <= haystack.count - needle.count else { return nil }
        let first = needle[0]
        var index = start
        while index <= haystack.count - needle.count {
            if haystack[index] == first, haystack[index..<(index + needle.count)].elementsEqual(needle) { return index }
            index += 1
        }
        return nil
    }

    /// The text of the first part called `name`.
    func value(_ name: String) -> String? {
        self.parts.first { $0.name == name }?.text
    }

    /// Every part called one of `names`, in order.
    func parts(named names: Set<String>) -> [Part] {
        self.parts.filter { names.contains($0.name) }
    }
}
