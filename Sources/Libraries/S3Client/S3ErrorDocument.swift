import Foundation

/// The `Code` and `Message` of S3's XML error body, `<Error><Code>…</Code><Message>…</Message>…</Error>`.
///
/// A scan rather than an XML parser: Foundation's parser lives in FoundationXML on Linux, which pulls in
/// libxml2, and these two elements never nest or carry attributes.
struct S3ErrorDocument: Equatable {
    var code: String?
    var message: String?

    init(code: String?, message: String?) {
        self.code = code
        self.message = message
    }

    /// Reads the first `Code` and `Message` elements of `body`; either is `nil` when missing or empty.
    init(parsing body: [UInt8]) {
        let text = String(decoding: body, as: UTF8.self)
        self.code = Self.element("Code", in: text)
        self.message = Self.element("Message", in: text)
    }

    static func element(_ name: String, in text: String) -> String? {
        guard let open = text.range(of: "<\(name)>"),
            let close = text.range(of: "</\(name)>", range: open.upperBound..<text.endIndex)
        else { return nil }
        let value = unescape(String(text[open.upperBound..<close.lowerBound]))
        return value.isEmpty ? nil : value
    }

    /// XML's five predefined entities; `&amp;` last, so `&amp;lt;` stays `&lt;`.
    static func unescape(_ text: String) -> String {
        guard text.contains("&") else { return text }
        return text.replacingOccurrences(of: "&lt;", with: "<")
            .replacingOccurrences(of: "&gt;", with: ">")
            .replacingOccurrences(of: "&quot;", with: "\"")
            .replacingOccurrences(of: "&apos;", with: "'")
            .replacingOccurrences(of: "&amp;", with: "&")
    }
}
