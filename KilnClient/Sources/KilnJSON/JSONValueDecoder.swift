import Foundation

/// Decodes a typed value straight from a ``JSONValue``, for ``JSONValue/decode(as:)``, without writing the document out
/// again for Foundation's `JSONDecoder`, whose fixed cost is most of the work for the inputs of a few members every
/// submission carries.
///
/// It accepts only what `JSONDecoder` accepts, with the same result, and throws ``Unsupported`` at anything else:
/// `decode(as:)` then asks `JSONDecoder`, whose answer (a value, or the error with its coding path) stands. So it
/// leaves to `JSONDecoder` every failure, the types `JSONDecoder` treats specially (`Data`, `Date`, `URL`, `Decimal`),
/// `Float`, whose rounding from a `Double` could differ from reading the text, and integers past 2^53, which a `Double`
/// may not hold exactly.
struct JSONValueDecoder: Decoder {
    /// Anything this decoder leaves to `JSONDecoder`.
    struct Unsupported: Error {}

    let value: JSONValue
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    init(_ value: JSONValue, codingPath: [any CodingKey] = []) {
        self.value = value
        self.codingPath = codingPath
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        guard case .object(let fields) = value else { throw Unsupported() }
        return KeyedDecodingContainer(Keyed<Key>(fields: fields, codingPath: codingPath))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        guard case .array(let elements) = value else { throw Unsupported() }
        return Unkeyed(elements: elements, codingPath: codingPath)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        Single(value: value, codingPath: codingPath)
    }

    /// `value` as a `T`, for every container.
    static func decode<T: Decodable>(_ value: JSONValue, as type: T.Type, codingPath: [any CodingKey]) throws -> T {
        if let value = value as? T { return value }
        switch (value, type) {
        case (.string(let text), is String.Type): return text as! T
        case (.bool(let flag), is Bool.Type): return flag as! T
        case (.number(let number), is Double.Type): return number as! T
        case (.number(let number), let integer as any FixedWidthInteger.Type):
            guard number.rounded() == number, abs(number) <= 0x1p53, let exact = integer.init(exactly: number) else { throw Unsupported() }
            return exact as! T
        // The types JSONDecoder reads its own way, and a mismatch: a string, flag or number asked of another kind of
        // value, which must not reach the default, where the type's own `init(from:)` would ask this decoder again.
        case (_, is Data.Type), (_, is Date.Type), (_, is URL.Type), (_, is Decimal.Type), (_, is Float.Type), (_, is String.Type),
            (_, is Bool.Type), (_, is Double.Type), (_, is any FixedWidthInteger.Type):
            throw Unsupported()
        default:
            return try T(from: JSONValueDecoder(value, codingPath: codingPath))
        }
    }

    private struct Keyed<Key: CodingKey>: KeyedDecodingContainerProtocol {
        let fields: [String: JSONValue]
        let codingPath: [any CodingKey]

        var allKeys: [Key] { fields.keys.compactMap(Key.init(stringValue:)) }

        func contains(_ key: Key) -> Bool { fields[key.stringValue] != nil }

        func decodeNil(forKey key: Key) throws -> Bool {
            guard let value = fields[key.stringValue] else { throw Unsupported() }
            return value == .null
        }

        func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
            guard let value = fields[key.stringValue] else { throw Unsupported() }
            return try JSONValueDecoder.decode(value, as: type, codingPath: codingPath + [key])
        }

        func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
            guard let value = fields[key.stringValue], value != .null else { return nil }
            return try JSONValueDecoder.decode(value, as: type, codingPath: codingPath + [key])
        }

        func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws -> KeyedDecodingContainer<NestedKey> {
            guard let value = fields[key.stringValue] else { throw Unsupported() }
            return try JSONValueDecoder(value, codingPath: codingPath + [key]).container(keyedBy: type)
        }

        func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
            guard let value = fields[key.stringValue] else { throw Unsupported() }
            return try JSONValueDecoder(value, codingPath: codingPath + [key]).unkeyedContainer()
        }

        func superDecoder() throws -> any Decoder { throw Unsupported() }

        func superDecoder(forKey key: Key) throws -> any Decoder { throw Unsupported() }
    }

    private struct Unkeyed: UnkeyedDecodingContainer {
        let elements: [JSONValue]
        let codingPath: [any CodingKey]
        var currentIndex = 0

        init(elements: [JSONValue], codingPath: [any CodingKey]) {
            self.elements = elements
            self.codingPath = codingPath
        }

        var count: Int? { elements.count }
        var isAtEnd: Bool { currentIndex >= elements.count }

        /// The next element; the index moves on only once it has been decoded.
        private func next() throws -> JSONValue {
            guard !isAtEnd else { throw Unsupported() }
            return elements[currentIndex]
        }

        mutating func decodeNil() throws -> Bool {
            guard try next() == .null else { return false }
            currentIndex += 1
            return true
        }

        mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
            let value = try JSONValueDecoder.decode(try next(), as: type, codingPath: codingPath + [IndexKey(currentIndex)])
            currentIndex += 1
            return value
        }

        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws -> KeyedDecodingContainer<NestedKey> {
            let container = try JSONValueDecoder(try next(), codingPath: codingPath + [IndexKey(currentIndex)]).container(keyedBy: type)
            currentIndex += 1
            return container
        }

        mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
            let container = try JSONValueDecoder(try next(), codingPath: codingPath + [IndexKey(currentIndex)]).unkeyedContainer()
            currentIndex += 1
            return container
        }

        mutating func superDecoder() throws -> any Decoder { throw Unsupported() }
    }

    private struct Single: SingleValueDecodingContainer {
        let value: JSONValue
        let codingPath: [any CodingKey]

        func decodeNil() -> Bool { value == .null }

        func decode<T: Decodable>(_ type: T.Type) throws -> T {
            try JSONValueDecoder.decode(value, as: type, codingPath: codingPath)
        }
    }

    private struct IndexKey: CodingKey {
        let intValue: Int?
        var stringValue: String { "Index \(intValue ?? 0)" }
        init(_ index: Int) { intValue = index }
        init?(stringValue: String) { nil }
        init?(intValue: Int) { self.intValue = intValue }
    }
}
