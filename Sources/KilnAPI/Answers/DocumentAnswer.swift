import KilnJSON

/// An answer that builds its own JSON document, for the answers on the hottest paths: ``AnswerEncoding`` writes the
/// document by hand (``JSONValue/canonicalJSON()``, the same sorted compact JSON) instead of through JSONEncoder, and
/// an answer that holds one encodes it as it is.
protocol DocumentAnswer: Encodable {
    var document: JSONValue { get }
}

extension DocumentAnswer {
    func encode(to encoder: any Encoder) throws {
        try document.encode(to: encoder)
    }
}
