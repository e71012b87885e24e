import KilnJSON

/// A model's answer read as the JSON document it should be: code fences that some models put around JSON are
/// taken off, and the document is checked against the schema.
enum StructuredAnswer {
    /// The document in `text`, or the violation that it is not one.
    static func parse(_ text: String) -> Result<JSONValue, StructuredAnswerRejected> {
        var body = Substring(text).drop(while: \.isWhitespace)
        while body.last?.isWhitespace == true { body.removeLast() }
        if body.hasPrefix("```") {
            // ```json … ```: drop the opening line and the closing fence.
            body = body.drop { $0 != "\n" }
            if body.hasSuffix("```") { body.removeLast(3) }
        }
        guard let document = JSONValue.parse(String(body)) else {
            return .failure(StructuredAnswerRejected([OutputViolation(path: "$", reason: "is not one complete JSON document")]))
        }
        return .success(document)
    }

    /// Every string in `document`: what the safety filter judges.
    static func texts(in document: JSONValue) -> [String] {
        switch document {
        case .string(let text): [text]
        case .array(let elements): elements.flatMap(texts(in:))
        case .object(let fields): fields.keys.sorted().flatMap { fields[$0].map(texts(in:)) ?? [] }
        case .null, .bool, .number: []
        }
    }
}
