import Foundation

/// A `multipart/form-data` body (RFC 7578), built in memory: the fields and files of an OpenAI image edit.
public struct MultipartForm: Sendable {
    /// The boundary, random, long enough never to occur inside an image.
    public let boundary: String
    private var body: [UInt8] = []

    public init(boundary: String = "kiln-" + (0..<4).map { _ in String(UInt64.random(in: 0...UInt64.max), radix: 36) }.joined()) {
        self.boundary = boundary
    }

    /// The `Content-Type` to send with ``bytes``.
    public var contentType: String { "multipart/form-data; boundary=\(self.boundary)" }

    /// The body, closed by the final boundary.
    public var bytes: [UInt8] { self.body + Array("--\(self.boundary)--\r\n".utf8) }

    /// Adds a text field.
    public mutating func add(name: String, value: String) {
        self.part(disposition: "form-data; name=\"\(Self.quoted(name))\"", contentType: nil, content: Array(value.utf8))
    }

    /// Adds a file.
    public mutating func add(name: String, fileName: String, contentType: String, data: [UInt8]) {
        self.part(
            disposition: "form-data; name=\"\(Self.quoted(name))\"; filename=\"\(Self.quoted(fileName))\"", contentType: contentType, content: data)
    }

    private mutating func part(disposition: String, contentType: String?, content: [UInt8]) {
        var head = "--\(self.boundary)\r\nContent-Disposition: \(disposition)\r\n"
        if let contentType { head += "Content-Type: \(contentType)\r\n" }
        head += "\r\n"
        self.body += Array(head.utf8) + content + Array("\r\n".utf8)
    }

    /// Quotes and line breaks cannot end a name early (RFC 7578 §4.2 percent-encodes them).
    private static func quoted(_ text: String) -> String {
        text.replacingOccurrences(of: "\"", with: "%22").replacingOccurrences(of: "\r", with: "%0D").replacingOccurrences(of: "\n", with: "%0A")
    }
}
