import KilnJSON

/// An answer that lists its own JSON members, for the answers on the hottest paths: ``AnswerEncoding`` writes them by
/// hand (``JSONValue/canonicalBytes(ofObject:)``, the same sorted compact JSON) instead of through JSONEncoder, and
/// an answer that holds one encodes it as it is.
protocol DocumentAnswer: Encodable {
    /// The answer's members; their keys are distinct.
    var members: [(key: String, value: JSONValue)] { get }
}

extension DocumentAnswer {
    /// The answer as one document.
    var document: JSONValue {
        .object(Dictionary(uniqueKeysWithValues: members))
    }

    func encode(to encoder: any Encoder) throws {
        try document.encode(to: encoder)
    }
}
