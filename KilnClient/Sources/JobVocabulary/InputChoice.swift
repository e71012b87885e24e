/// A closed set of words an input field takes. Decoding any other word fails with a reason that lists the accepted
/// ones, which ``InputError`` passes on to the caller (Swift's own reason names the Swift type instead).
public protocol InputChoice: RawRepresentable<String>, CaseIterable, Decodable {}

extension InputChoice {
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let word = try container.decode(String.self)
        guard let value = Self(rawValue: word) else {
            let accepted = Self.allCases.map(\.rawValue).joined(separator: ", ")
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "must be one of \(accepted), not \"\(word)\"")
        }
        self = value
    }
}
