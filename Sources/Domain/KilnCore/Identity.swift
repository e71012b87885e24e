/// The end user a job belongs to, inside one tenant: an opaque string the tenant vouches for.
public struct Identity: Hashable, Sendable, Codable, CustomStringConvertible {
    public let rawValue: String

    /// Returns nil unless `text` is 1–128 printable ASCII characters without spaces.
    public init?(validating text: String) {
        guard (1...128).contains(text.utf8.count), text.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F }) else { return nil }
        self.rawValue = text
    }

    public init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        guard let id = Identity(validating: text) else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "not an identity"))
        }
        self = id
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }

    public var description: String { rawValue }
}
