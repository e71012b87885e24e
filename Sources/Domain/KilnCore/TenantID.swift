/// A tenant (one app) is named by a short slug: lowercase letters, digits and dashes.
public struct TenantID: Hashable, Sendable, Codable, CustomStringConvertible {
    public let rawValue: String

    /// Returns nil unless `text` is 1–63 characters of `a-z`, `0-9` and `-`, not starting with a dash.
    public init?(validating text: String) {
        guard (1...63).contains(text.utf8.count), text.first != "-",
            text.utf8.allSatisfy({ ($0 >= 0x61 && $0 <= 0x7A) || ($0 >= 0x30 && $0 <= 0x39) || $0 == 0x2D })
        else { return nil }
        self.rawValue = text
    }

    public init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        guard let id = TenantID(validating: text) else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "not a tenant id"))
        }
        self = id
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }

    public var description: String { rawValue }
}
