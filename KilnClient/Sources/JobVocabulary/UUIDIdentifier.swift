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
        // Kiln's own ids, already canonical, are taken as they are: a worker validates every id a claim returns, and
        // parsing and printing each through `UUID` is work on every job for nothing.
        if Self.isLowercaseUUID(text) {
            self.init(lowercaseUUID: text)
            return
        }
        guard let uuid = UUID(uuidString: text) else { return nil }
        self.init(lowercaseUUID: uuid.uuidString.lowercased())
    }

    /// Whether `text` is a UUID in canonical lowercase form: 8-4-4-4-12 lowercase hex digits.
    private static func isLowercaseUUID(_ text: String) -> Bool {
        text.utf8.withContiguousStorageIfAvailable { bytes in
            guard bytes.count == 36 else { return false }
            for (offset, byte) in bytes.enumerated() {
                switch offset {
                case 8, 13, 18, 23: guard byte == UInt8(ascii: "-") else { return false }
                default: guard LowercaseHex.value(of: byte) != nil else { return false }
                }
            }
            return true
        } ?? false
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
