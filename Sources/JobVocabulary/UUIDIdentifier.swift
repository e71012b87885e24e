import Foundation

/// An identifier that is a lowercase UUID, made by Kiln: a job's, a campaign's. Only the canonical UUID form is taken,
/// so a path segment cannot smuggle key syntax into Redis.
public protocol UUIDIdentifier: Hashable, Sendable, Codable, CustomStringConvertible {
    var rawValue: String { get }
    /// `rawValue` is already a lowercase UUID.
    init(lowercaseUUID rawValue: String)
}

extension UUIDIdentifier {
    /// A new random identifier.
    public init() {
        self.init(lowercaseUUID: UUID().uuidString.lowercased())
    }

    public init?(validating text: String) {
        guard let uuid = UUID(uuidString: text) else { return nil }
        self.init(lowercaseUUID: uuid.uuidString.lowercased())
    }

    public init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        guard let id = Self(validating: text) else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "not a UUID"))
        }
        self = id
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }

    public var description: String { rawValue }
}
